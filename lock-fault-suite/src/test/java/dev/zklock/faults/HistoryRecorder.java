package dev.zklock.faults;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Appends a worker's events to its history file, one flushed line each, so that a kill
 * loses at most the line being written. Each event is timed when it is recorded.
 */
final class HistoryRecorder implements AutoCloseable {

	private final PrintWriter writer;

	HistoryRecorder(Path file) {
		try {
			this.writer = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	synchronized void record(HistoryEvent.Type type, String key, long token, String detail) {
		HistoryEvent event = new HistoryEvent(HistoryEvent.nowMicros(), Thread.currentThread().getName(), type, key,
				token, detail);
		this.writer.println(event.format());
		this.writer.flush();
	}

	@Override
	public synchronized void close() {
		this.writer.close();
	}

}
