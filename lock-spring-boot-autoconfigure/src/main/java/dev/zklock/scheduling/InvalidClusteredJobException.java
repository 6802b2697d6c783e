package dev.zklock.scheduling;

/**
 * Thrown at start-up for a {@link dev.zklock.ClusteredJob} that cannot apply as written:
 * it names the method, what is wrong and how to fix it, which
 * {@link InvalidClusteredJobFailureAnalyzer} reports.
 */
class InvalidClusteredJobException extends IllegalStateException {

	private final String method;

	private final String problem;

	private final String fix;

	InvalidClusteredJobException(String method, String problem, String fix) {
		super("@ClusteredJob on " + method + " cannot apply: " + problem + ". " + fix);
		this.method = method;
		this.problem = problem;
		this.fix = fix;
	}

	String getMethod() {
		return this.method;
	}

	String getProblem() {
		return this.problem;
	}

	String getFix() {
		return this.fix;
	}

}
