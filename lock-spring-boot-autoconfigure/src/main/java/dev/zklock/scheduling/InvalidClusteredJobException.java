package dev.zklock.scheduling;

/**
 * Thrown at start-up for a {@link dev.zklock.ClusteredJob} that cannot apply as written:
 * its message names the method, what is wrong and how to fix it.
 */
class InvalidClusteredJobException extends IllegalStateException {

	InvalidClusteredJobException(String method, String problem, String fix) {
		super("@ClusteredJob on " + method + " cannot apply: " + problem + ". " + fix);
	}

}
