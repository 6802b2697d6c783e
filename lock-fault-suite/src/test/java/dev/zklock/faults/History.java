package dev.zklock.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.zklock.LockType;

/**
 * What the threads of one worker process recorded, in the order the store stamped it.
 *
 * @param worker the worker's name
 * @param events the recorded events
 */
record History(String worker, List<HistoryEvent> events) {

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
	 * Whether a thread is the candidate of a leader worker ({@link LeaderTermWriter}),
	 * which holds the election's lock only while it leads: of all the candidates, one at
	 * a time makes progress.
	 * @param thread the thread's name
	 * @return whether it is a candidate
	 */
	boolean isCandidate(String thread) {
		return this.events.stream()
			.anyMatch((event) -> event.type() == HistoryEvent.Type.STARTED && event.thread().equals(thread)
					&& event.detail().equals(LeaderTermWriter.CANDIDATE));
	}

	/**
	 * Whether the worker's candidate leads now: the last term it took up has not ended.
	 * @return whether it leads
	 */
	boolean leads() {
		HistoryEvent last = null;
		for (HistoryEvent event : this.events) {
			if (event.key().equals(LeaderTermWriter.ELECTION) && (event.type() == HistoryEvent.Type.ACQUIRED
					|| event.type() == HistoryEvent.Type.RELEASED || event.type() == HistoryEvent.Type.FAILED)) {
				last = event;
			}
		}
		return last != null && last.type() == HistoryEvent.Type.ACQUIRED;
	}

	/**
	 * Whether a candidate wrote as a leader after a time: one of its terms, begun then or
	 * before (a term outlasts faults that leave it valid), had a write accepted after it.
	 * @param thread the candidate's thread
	 * @param since the time, on the store's clock
	 * @return whether it did
	 */
	boolean ledAfter(String thread, long since) {
		return holds().stream().anyMatch((hold) -> hold.thread().equals(thread) && hold.completedAfter(since));
	}

	/**
	 * Whether a thread made a hold that did its work after a time (an accepted write; for
	 * a reader or a semaphore's holder, a valid sample).
	 * @param thread the thread's name
	 * @param since the time, on the store's clock
	 * @return whether it did
	 */
	boolean progressed(String thread, long since) {
		return holds().stream()
			.anyMatch(
					(hold) -> hold.thread().equals(thread) && hold.acquiredAt() >= since && hold.completedAfter(since));
	}

	/**
	 * The holds of every thread of the worker, each with the events of its critical
	 * section.
	 * @return the holds, per thread in order
	 */
	List<Hold> holds() {
		List<Hold> holds = new ArrayList<>();
		Map<String, List<HistoryEvent>> open = new LinkedHashMap<>();
		Map<String, Long> lastStamps = new HashMap<>();
		Map<String, Long> requestedAfter = new HashMap<>();
		for (HistoryEvent event : this.events) {
			switch (event.type()) {
				case ACQUIRED -> {
					close(open.remove(event.thread()), requestedAfter, holds);
					requestedAfter.put(event.thread(), lastStamps.getOrDefault(event.thread(), 0L));
					open.put(event.thread(), new ArrayList<>(List.of(event)));
				}
				case READ, STALL, WRITE, VALID -> {
					List<HistoryEvent> hold = open.get(event.thread());
					if (hold != null) {
						hold.add(event);
					}
				}
				case RELEASED, FAILED, STOPPED -> close(open.remove(event.thread()), requestedAfter, holds);
				default -> {
				}
			}
			lastStamps.put(event.thread(), event.timeMicros());
		}
		open.values().forEach((hold) -> close(hold, requestedAfter, holds));
		return holds;
	}

	/**
	 * Makes a hold of its events: the acquisition, whose detail names the lock
	 * ({@code EXCLUSIVE}, {@code READ}, {@code WRITE} or {@code SEMAPHORE PERMITS}), and
	 * the events of the critical section; the stamp of the thread's event before the
	 * acquisition is the time after which the hold was {@link Hold#requestedAfter()
	 * requested}.
	 */
	private static void close(List<HistoryEvent> hold, Map<String, Long> requestedAfter, List<Hold> holds) {
		if (hold != null) {
			HistoryEvent acquired = hold.get(0);
			String[] lock = acquired.detail().split(" ");
			holds.add(new Hold(acquired.thread(), acquired.key(), LockType.valueOf(lock[0]),
					(lock.length > 1) ? Integer.parseInt(lock[1]) : 1, acquired.token(),
					requestedAfter.get(acquired.thread()), acquired.timeMicros(),
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
