package dev.zklock.faults;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * A fault run per test, started before it (as its {@link RunOptions} say, if it has any)
 * and closed after it, and the baseline every fault is measured against: without faults,
 * every thread progresses and the checker finds nothing.
 */
abstract class FaultRunTests {

	static final Duration QUIET_PERIOD = Duration.ofSeconds(10);

	private final String runPrefix;

	private final int servers;

	FaultRun run;

	/**
	 * Creates the tests of runs against a number of ZooKeeper servers.
	 * @param runPrefix the prefix of each run's name, before the test's name
	 * @param servers the number of ZooKeeper servers: 1 for a standalone server
	 */
	FaultRunTests(String runPrefix, int servers) {
		this.runPrefix = runPrefix;
		this.servers = servers;
	}

	@BeforeEach
	void startRun(TestInfo test) throws Exception {
		Method method = test.getTestMethod().orElseThrow();
		RunSetup setup = RunSetup.of(this.servers);
		RunOptions options = method.getAnnotation(RunOptions.class);
		if (options != null) {
			setup = new RunSetup(this.servers,
					(options.workers().length > 0) ? List.of(options.workers()) : setup.workers(),
					(options.sessionTimeoutMillis() > 0) ? Duration.ofMillis(options.sessionTimeoutMillis())
							: setup.sessionTimeout(),
					List.of(options.workerProperties()), List.of(options.victimProperties()),
					options.storeAcceptsStaleTokens());
		}
		this.run = FaultRun.start(this.runPrefix + method.getName(), setup);
	}

	@AfterEach
	void closeRun() {
		if (this.run != null) {
			this.run.close();
		}
	}

	/**
	 * Asserts that a holder whose lock passed to another holder saw its lock invalid
	 * before and after its write, had its write rejected, and that the run broke no
	 * promise.
	 * @param stale the stale holder's hold
	 * @param violations what the checker found
	 */
	static void assertFencedOff(Hold stale, List<Violation> violations) {
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(stale.lastOf(HistoryEvent.Type.WRITE).map(HistoryEvent::detail).orElse("no write"))
				.as("the stale holder's write")
				.endsWith(" REJECTED");
			softly.assertThat(samples(stale))
				.as("isValid() as the stale holder saw it before and after its write")
				.containsExactly("false", "false");
			softly.assertThat(violations).isEmpty();
		});
	}

	/**
	 * The validity samples of a hold, in order.
	 * @param hold the hold
	 * @return {@code true} or {@code false}, per sample
	 */
	static List<String> samples(Hold hold) {
		return hold.events()
			.stream()
			.filter((event) -> event.type() == HistoryEvent.Type.VALID)
			.map(HistoryEvent::detail)
			.toList();
	}

	/**
	 * Whether an event is an acquisition or a write of the key of a stalled hold with a
	 * greater token.
	 * @param event the event
	 * @param stalled the stalled hold's {@code STALL} event
	 * @return whether it belongs to a later hold of the key
	 */
	static boolean isLaterHoldOf(HistoryEvent event, HistoryEvent stalled) {
		return event.key().equals(stalled.key()) && event.token() > stalled.token()
				&& (event.type() == HistoryEvent.Type.ACQUIRED || event.type() == HistoryEvent.Type.WRITE);
	}

	/**
	 * Whether an event is an accepted write of the key of a stalled hold with a greater
	 * token.
	 * @param event the event
	 * @param stalled the stalled hold's {@code STALL} event
	 * @return whether a later holder wrote the key
	 */
	static boolean isLaterWriteOf(HistoryEvent event, HistoryEvent stalled) {
		return isLaterHoldOf(event, stalled) && event.type() == HistoryEvent.Type.WRITE
				&& event.detail().endsWith(" ACCEPTED");
	}

	/**
	 * Whether an event is an accepted write recorded after a time.
	 * @param event the event
	 * @param after the time, on the store's clock
	 * @return whether it is such a write
	 */
	static boolean isAcceptedWriteAfter(HistoryEvent event, long after) {
		return event.type() == HistoryEvent.Type.WRITE && event.detail().endsWith(" ACCEPTED")
				&& event.timeMicros() > after;
	}

	/**
	 * Whether an event is a change of the connection to a state, recorded after a time.
	 * @param event the event
	 * @param state Curator's connection state, such as {@code SUSPENDED}
	 * @param after the time, on the store's clock
	 * @return whether it is such a change
	 */
	static boolean isConnection(HistoryEvent event, String state, long after) {
		return event.type() == HistoryEvent.Type.CONNECTION && event.detail().startsWith(state + " ")
				&& event.timeMicros() > after;
	}

	/**
	 * The session named by a {@code CONNECTION} event.
	 * @param connection the event
	 * @return the session, as ZooKeeper prints it
	 */
	static String sessionOf(HistoryEvent connection) {
		return connection.detail().substring(connection.detail().indexOf(' ') + 1);
	}

	/**
	 * The hold of a worker that a {@code STALL} event belongs to.
	 * @param worker the worker
	 * @param stalled the event
	 * @return the hold
	 */
	static Hold holdOf(WorkerProcess worker, HistoryEvent stalled) {
		return worker.history()
			.holds()
			.stream()
			.filter((hold) -> hold.thread().equals(stalled.thread()) && hold.token() == stalled.token())
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Whether an event ends the hold that a {@code STALL} event belongs to: its release,
	 * or the failure of the call that held it.
	 * @param event the event
	 * @param stalled the {@code STALL} event
	 * @return whether it ends that hold
	 */
	static boolean endsHoldOf(HistoryEvent event, HistoryEvent stalled) {
		return event.thread().equals(stalled.thread()) && event.timeMicros() > stalled.timeMicros()
				&& (event.type() == HistoryEvent.Type.RELEASED || event.type() == HistoryEvent.Type.FAILED);
	}

	/**
	 * Milliseconds between two times of the store's clock.
	 * @param from the earlier time
	 * @param to the later time
	 * @return the milliseconds between them
	 */
	static long millis(long from, long to) {
		return (to - from) / 1000;
	}

}
