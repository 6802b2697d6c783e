package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Records, with JDK Flight Recorder, every {@code jdk.VirtualThreadPinned} event of this
 * JVM while a workload runs (whatever its length: without JFR's default threshold of 20
 * ms), with its stack trace, and counts them, those of the measured window apart from the
 * others: a cold JVM's first threads can be pinned while they wait for a class that
 * another thread initializes. The recording stays in a file, for
 * {@code jfr print --events jdk.VirtualThreadPinned FILE}.
 */
final class PinnedEvents implements AutoCloseable {

	static final String EVENT = "jdk.VirtualThreadPinned";

	private final Recording recording = new Recording();

	private final Path file;

	/**
	 * Starts recording.
	 * @param file where the recording goes when it stops
	 */
	PinnedEvents(Path file) {
		this.file = file;
		this.recording.enable(EVENT).withoutThreshold().withStackTrace();
		this.recording.setToDisk(true);
		this.recording.start();
	}

	/**
	 * Stops recording, writes the file and counts the events in it.
	 * @param measuredFrom when the measured window began
	 * @param measuredUntil when it ended
	 * @return the events recorded in the window and outside it
	 * @throws IOException if the recording cannot be written or read
	 */
	Count stop(Instant measuredFrom, Instant measuredUntil) throws IOException {
		this.recording.stop();
		this.recording.dump(this.file);
		long measured = 0;
		long outside = 0;
		try (RecordingFile events = new RecordingFile(this.file)) {
			while (events.hasMoreEvents()) {
				RecordedEvent event = events.readEvent();
				if (event.getEventType().getName().equals(EVENT)) {
					if (event.getStartTime().isBefore(measuredFrom) || event.getStartTime().isAfter(measuredUntil)) {
						outside++;
					}
					else {
						measured++;
					}
				}
			}
		}
		return new Count(measured, outside);
	}

	@Override
	public void close() {
		this.recording.close();
	}

	/**
	 * The events of a recording.
	 *
	 * @param measured the events in the measured window
	 * @param outside the events of the warm-up and of the end of the run
	 */
	record Count(long measured, long outside) {

	}

}
