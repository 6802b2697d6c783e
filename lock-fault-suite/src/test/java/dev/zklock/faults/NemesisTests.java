package dev.zklock.faults;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The randomized nemesis: a {@link NemesisSchedule schedule} drawn from a seed mixes
 * every fault the suite knows against an ensemble of three servers and eight workers,
 * hand-off on: two of exclusive locks, two of read and write locks, two of a semaphore's
 * permits (two threads each), and two candidates of a leader election that write while
 * they lead ({@link NemesisSchedule#WORKERS}), for as many minutes as the system property
 * {@value #MINUTES} says (the profile {@code fault-suite} sets 2; without it, or at 0, it
 * does not run). After a quiet period the checker goes over the whole run, and one line
 * of figures goes to the test output and to {@code figures.txt} in the run's directory,
 * the schedule to {@code schedule.txt}. The seed is {@value #SEED} if set, drawn at
 * random otherwise.
 */
@EnabledIfSystemProperty(named = NemesisTests.MINUTES, matches = "0*[1-9][0-9]*")
class NemesisTests extends FaultRunTests {

	static final String MINUTES = "fault-suite.nemesis-minutes";

	static final String SEED = "fault-suite.nemesis-seed";

	NemesisTests() {
		super("nemesis-", NemesisSchedule.SERVERS);
	}

	@Test
	@RunOptions(
			workers = { WorkerKind.EXCLUSIVE, WorkerKind.EXCLUSIVE, WorkerKind.READ_WRITE, WorkerKind.READ_WRITE,
					WorkerKind.SEMAPHORE, WorkerKind.SEMAPHORE, WorkerKind.LEADER, WorkerKind.LEADER },
			workerProperties = "distributed-lock.hand-off.enabled=true")
	void randomFaultsBreakNoPromise() throws Exception {
		String seedProperty = System.getProperty(SEED, "").trim();
		long seed = seedProperty.isEmpty() ? new SecureRandom().nextLong() : Long.parseLong(seedProperty);
		NemesisSchedule schedule = NemesisSchedule.draw(seed, Integer.parseInt(System.getProperty(MINUTES)));
		this.run.report("seed %d, %d minutes, %d steps drawn: -D%s=%d plays the same faults again", seed,
				schedule.minutes(), schedule.steps().size(), SEED, seed);
		Files.write(this.run.directory().resolve("schedule.txt"), schedule.lines(), StandardCharsets.UTF_8);
		Nemesis nemesis = new Nemesis(this.run);
		nemesis.strike(schedule);
		List<Violation> violations = new ArrayList<>(nemesis.violations());
		violations.addAll(this.run.quietThenCheck(QUIET_PERIOD));
		String figures = NemesisFigures.of(schedule, nemesis.injected(), this.run.checked(), violations).line();
		System.out.println(figures);
		Files.writeString(this.run.directory().resolve("figures.txt"), figures + "\n", StandardCharsets.UTF_8);
		assertThat(violations).isEmpty();
	}

}
