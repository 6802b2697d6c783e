package dev.zklock.scheduling;

/**
 * Thrown when ZooKeeper could not read or write a job's record, to tell it from a failure
 * of the job's method, which passes through the same call.
 */
class JobRecordsException extends IllegalStateException {

	JobRecordsException(String message, Throwable cause) {
		super(message, cause);
	}

}
