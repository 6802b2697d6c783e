package dev.zklock.faults;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the run of a test of {@link FaultRunTests} differs from the default one.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface RunOptions {

	/**
	 * The kind of each worker, the first one the victim whose properties are
	 * {@link #victimProperties()}.
	 * @return the kinds, or none for three workers of exclusive locks
	 */
	WorkerKind[] workers() default {};

	/**
	 * The session timeout of the workers, in milliseconds.
	 * @return the session timeout, or {@code 0} for {@link FaultWorker#SESSION_TIMEOUT}
	 */
	long sessionTimeoutMillis() default 0;

	/**
	 * Properties of every worker's application, as {@code name=value}.
	 * @return the properties
	 */
	String[] workerProperties() default {};

	/**
	 * Properties of the first worker's application, the one faults hit, as
	 * {@code name=value}.
	 * @return the properties
	 */
	String[] victimProperties() default {};

	/**
	 * Whether the fenced store is broken: it accepts stale tokens.
	 * @return whether the store accepts every write
	 */
	boolean storeAcceptsStaleTokens() default false;

}
