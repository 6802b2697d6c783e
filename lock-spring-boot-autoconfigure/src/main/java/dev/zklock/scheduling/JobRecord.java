package dev.zklock.scheduling;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The record of a {@link dev.zklock.ClusteredJob}'s last run, kept in the data of the
 * job's ZooKeeper node: the scheduled time it ran (no instance runs an earlier or the
 * same time again), the instance that ran it, when the run started and ended, its status
 * and the fencing token of the job's lock during the run. It is written twice per run,
 * each time conditionally on the node's version: when an instance claims the run, and
 * when the run ends.
 *
 * @param job the job's name
 * @param scheduledTime the scheduled time of the run
 * @param instance the instance that ran it: the application's name, the host and the
 * process id
 * @param start when the run started, on that instance's clock
 * @param end when it ended, on that instance's clock, or {@code null} while it runs (or
 * if its instance died during the run)
 * @param status how it went
 * @param fencingToken the fencing token of the job's lock during the run
 */
public record JobRecord(String job, Instant scheduledTime, String instance, Instant start, @Nullable Instant end,
		Status status, long fencingToken) {

	private static final Set<String> REQUIRED_FIELDS = Set.of("scheduledTime", "instance", "start", "status",
			"fencingToken");

	/**
	 * How a run went.
	 */
	public enum Status {

		/**
		 * The run was claimed and has not ended: it runs, or its instance died.
		 */
		RUNNING,

		/**
		 * The method returned.
		 */
		SUCCEEDED,

		/**
		 * The method threw.
		 */
		FAILED

	}

	/**
	 * The record of a run that claims a scheduled time now.
	 */
	static JobRecord claimed(String job, Instant scheduledTime, String instance, Instant start, long fencingToken) {
		return new JobRecord(job, scheduledTime, instance, start, null, Status.RUNNING, fencingToken);
	}

	/**
	 * This run, ended.
	 */
	JobRecord ended(Instant end, Status status) {
		return new JobRecord(this.job, this.scheduledTime, this.instance, this.start, end, status, this.fencingToken);
	}

	/**
	 * When the run ended or, if it never did, started: what a fixed delay counts from.
	 */
	Instant endOrStart() {
		return (this.end != null) ? this.end : this.start;
	}

	byte[] toBytes() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("scheduledTime", this.scheduledTime.toString());
		fields.put("instance", this.instance.replace('\n', ' '));
		fields.put("start", this.start.toString());
		if (this.end != null) {
			fields.put("end", this.end.toString());
		}
		fields.put("status", this.status.name());
		fields.put("fencingToken", Long.toString(this.fencingToken));
		StringBuilder data = new StringBuilder();
		fields.forEach((name, value) -> data.append(name).append('=').append(value).append('\n'));
		return data.toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Reads a record from a job node's data; {@code null} for data that is not one (an
	 * empty node, or one that somebody else wrote).
	 */
	static @Nullable JobRecord fromBytes(String job, byte @Nullable [] data) {
		if (data == null) {
			return null;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : new String(data, StandardCharsets.UTF_8).split("\n")) {
			int separator = line.indexOf('=');
			if (separator > 0) {
				fields.put(line.substring(0, separator), line.substring(separator + 1));
			}
		}
		if (!fields.keySet().containsAll(REQUIRED_FIELDS)) {
			return null;
		}
		try {
			String end = fields.get("end");
			return new JobRecord(job, Instant.parse(fields.get("scheduledTime")), fields.get("instance"),
					Instant.parse(fields.get("start")), (end != null) ? Instant.parse(end) : null,
					Status.valueOf(fields.get("status")), Long.parseLong(fields.get("fencingToken")));
		}
		catch (DateTimeException | IllegalArgumentException ex) {
			return null;
		}
	}

}
