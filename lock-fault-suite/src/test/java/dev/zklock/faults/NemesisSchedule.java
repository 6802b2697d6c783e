package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of a {@link Nemesis} run, drawn from a seed: the same seed and minutes give
 * the same schedule, so a failing seed plays the same faults again (their timing against
 * the workers differs from run to run).
 * <p>
 * The steps come in rounds, each every {@link NemesisFault fault} once in an order drawn
 * anew, so that every fault recurs evenly whatever the seed. There are enough of them to
 * fill the minutes even if each step took no longer than its fault, which none does (the
 * run takes time to recover): the nemesis stops at the first step that no longer fits in
 * the minutes, and never reaches the rest.
 *
 * @param seed the seed
 * @param minutes how long the nemesis strikes
 * @param steps the steps, in order
 */
record NemesisSchedule(long seed, int minutes, List<NemesisStep> steps) {

	/**
	 * The workers of a nemesis run, by place: two of each kind, so that every kind of
	 * lock, and the leader election, is contended across processes.
	 */
	static final List<WorkerKind> WORKERS = List.of(WorkerKind.EXCLUSIVE, WorkerKind.EXCLUSIVE, WorkerKind.READ_WRITE,
			WorkerKind.READ_WRITE, WorkerKind.SEMAPHORE, WorkerKind.SEMAPHORE, WorkerKind.LEADER, WorkerKind.LEADER);

	/** The ZooKeeper servers of a nemesis run. */
	static final int SERVERS = 3;

	/** The range of the delay added each way by {@link NemesisFault#LATENCY}. */
	private static final int MIN_DELAY_MILLIS = 100;

	private static final int MAX_DELAY_MILLIS = 1000;

	/** The range of the reset rate of {@link NemesisFault#PACKET_LOSS}. */
	private static final double MIN_DROP_RATE = 0.01;

	private static final double MAX_DROP_RATE = 0.05;

	/**
	 * Draws a schedule.
	 * @param seed the seed
	 * @param minutes how long the nemesis strikes
	 * @return the schedule, a function of the seed and the minutes only
	 */
	static NemesisSchedule draw(long seed, int minutes) {
		Random random = new Random(seed);
		List<NemesisStep> steps = new ArrayList<>();
		Duration filled = Duration.ZERO;
		while (filled.compareTo(Duration.ofMinutes(minutes)) < 0) {
			List<NemesisFault> round = new ArrayList<>(List.of(NemesisFault.values()));
			Collections.shuffle(round, random);
			for (NemesisFault fault : round) {
				NemesisStep step = drawStep(steps.size() + 1, fault, random);
				steps.add(step);
				filled = filled.plus(step.duration());
			}
		}
		return new NemesisSchedule(seed, minutes, List.copyOf(steps));
	}

	private static NemesisStep drawStep(int number, NemesisFault fault, Random random) {
		int worker = random.nextInt(WORKERS.size());
		int server = random.nextInt(SERVERS);
		boolean holding = fault == NemesisFault.RELEASE_IN_FLIGHT || random.nextBoolean();
		Duration duration = fault.minDuration().plusMillis(random.nextInt(fault.durationSpanMillis() + 1));
		Duration delay = (fault == NemesisFault.LATENCY)
				? Duration.ofMillis(MIN_DELAY_MILLIS + random.nextInt(MAX_DELAY_MILLIS - MIN_DELAY_MILLIS + 1))
				: Duration.ZERO;
		double dropRate = (fault == NemesisFault.PACKET_LOSS)
				? MIN_DROP_RATE + random.nextDouble() * (MAX_DROP_RATE - MIN_DROP_RATE) : 0;
		return new NemesisStep(number, fault, worker, server, holding, duration, delay, dropRate);
	}

	/**
	 * The schedule, one step a line, headed by its seed and minutes.
	 * @return the lines
	 */
	List<String> lines() {
		List<String> lines = new ArrayList<>();
		lines.add("nemesis schedule of seed " + this.seed + " for " + this.minutes + " minutes");
		this.steps.forEach((step) -> lines.add(step.toString()));
		return lines;
	}

}
