package dev.zklock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the threads of one worker process recorded, in the order they recorded it.
 *
 * @param worker the worker's name
 * @param events the recorded events
 */
record History(String worker, List<HistoryEvent> events) {

	/**
	 * Reads a worker's history file. A last line cut short (the worker was killed while
	 * writing it) is left out.
	 * @param worker the worker's name
	 * @param file the history file
	 * @return the history, empty when the file does not exist yet
	 */
	static History read(String worker, Path file) {
		List<HistoryEvent> events = new ArrayList<>();
		if (Files.exists(file)) {
			try {
				for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
					parseComplete(line, events);
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return new History(worker, List.copyOf(events));
	}

	private static void parseComplete(String line, List<HistoryEvent> events) {
		try {
			events.add(HistoryEvent.parse(line));
		}
		catch (IllegalArgumentException ex) {
			// A line cut short by a kill -9: nothing after it was written
		}
	}

	/**
	 * The lock threads of the worker: those that recorded their start.
	 * @return the names of the lock threads
	 */
	Set<String> threads() {
		Set<String> threads = new LinkedHashSet<>();
		this.events.stream()
			.filter((event) -> event.type() == HistoryEvent.Type.STARTED)
			.forEach((event) -> threads.add(event.thread()));
		return threads;
	}

	/**
	 * The holds of every thread of the worker, each with the events of its critical
	 * section.
	 * @return the holds, per thread in order
	 */
	List<Hold> holds() {
		List<Hold> holds = new ArrayList<>();
		Map<String, List<HistoryEvent>> open = new LinkedHashMap<>();
		for (HistoryEvent event : this.events) {
			switch (event.type()) {
				case ACQUIRED -> {
					close(open.remove(event.thread()), holds);
					open.put(event.thread(), new ArrayList<>(List.of(event)));
				}
				case READ, STALL, WRITE, VALID -> {
					List<HistoryEvent> hold = open.get(event.thread());
					if (hold != null) {
						hold.add(event);
					}
				}
				case RELEASED, FAILED, STOPPED -> close(open.remove(event.thread()), holds);
				default -> {
				}
			}
		}
		open.values().forEach((hold) -> close(hold, holds));
		return holds;
	}

	private static void close(List<HistoryEvent> hold, List<Hold> holds) {
		if (hold != null) {
			HistoryEvent acquired = hold.get(0);
			holds.add(new Hold(acquired.thread(), acquired.key(), acquired.token(), acquired.timeMicros(),
					List.copyOf(hold.subList(1, hold.size()))));
		}
	}

	/**
	 * The events of one thread.
	 * @param thread the thread's name
	 * @return its events, in order
	 */
	List<HistoryEvent> eventsOf(String thread) {
		return this.events.stream().filter((event) -> event.thread().equals(thread)).toList();
	}

}
