package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;

/**
 * Plays a {@link NemesisSchedule} against a {@link FaultRun}: one step after the other,
 * each fault held for its duration and then healed, after which every live worker must
 * make a hold that does its work again (an accepted write; for a reader or a semaphore's
 * holder, a valid sample) before the next step; of the leader workers, one must (it
 * leads). A step at the place of a leader worker strikes the one that leads. A holder
 * stalled across the fault writes only then, so that the store sees its write after those
 * of any holder that took its lock over. The schedule's workers are places among the live
 * workers: a killed worker's replacement, of the same kind, takes its place. A worker
 * that does not make such a hold within {@link #RECOVERY} of the heal is a
 * {@link Violation.Rule#PROGRESS progress} violation, and the nemesis goes on.
 */
final class Nemesis {

	/** Longer than any fault: the nemesis ends every stall with {@code proceed}. */
	private static final Duration STALL = Duration.ofMinutes(2);

	/** How long the run may take to recover from a fault. */
	private static final Duration RECOVERY = Duration.ofSeconds(60);

	private final FaultRun run;

	private final List<WorkerProcess> live;

	private final Map<NemesisFault, Integer> injected = new EnumMap<>(NemesisFault.class);

	private final List<Violation> violations = new ArrayList<>();

	/**
	 * Creates a nemesis against the workers that a run started.
	 * @param run the run, started with {@link NemesisSchedule#WORKERS} and
	 * {@link NemesisSchedule#SERVERS} servers
	 */
	Nemesis(FaultRun run) {
		this.run = run;
		this.live = new ArrayList<>(run.workers());
		if (!this.live.stream().map(WorkerProcess::kind).toList().equals(NemesisSchedule.WORKERS)
				|| run.ensemble().servers().size() != NemesisSchedule.SERVERS) {
			throw new IllegalArgumentException("A nemesis needs the workers " + NemesisSchedule.WORKERS + " and "
					+ NemesisSchedule.SERVERS + " servers");
		}
	}

	/**
	 * Plays the schedule's steps in order, for as long as the next one fits in its
	 * minutes.
	 * @param schedule the schedule
	 */
	void strike(NemesisSchedule schedule) throws Exception {
		long started = System.nanoTime();
		Duration budget = Duration.ofMinutes(schedule.minutes());
		for (NemesisStep step : schedule.steps()) {
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			if (elapsed.plus(step.duration()).compareTo(budget) > 0) {
				this.run.report("%d of %d steps played in %d s", step.number() - 1, schedule.steps().size(),
						elapsed.toSeconds());
				return;
			}
			play(step);
		}
	}

	/**
	 * The faults injected so far.
	 * @return the number of faults of each kind
	 */
	Map<NemesisFault, Integer> injected() {
		return Map.copyOf(this.injected);
	}

	/**
	 * The workers that did not recover from a fault in time.
	 * @return the progress violations found
	 */
	List<Violation> violations() {
		return List.copyOf(this.violations);
	}

	private void play(NemesisStep step) throws Exception {
		WorkerProcess worker = target(step);
		this.run.report("%s: %s", step, worker);
		boolean holding = step.holding() && (worker.kind() != WorkerKind.LEADER || worker.history().leads());
		if (step.fault() == NemesisFault.RELEASE_IN_FLIGHT && !holding) {
			this.run.report("#%d skipped: no leader to stall", step.number());
			return;
		}
		HistoryEvent stalled = holding ? this.run.stallNextHolder(worker, STALL) : null;
		String detail = strike(step, worker, stalled);
		long healedAt = this.run.now();
		this.run.faultsCleared();
		this.injected.merge(step.fault(), 1, Integer::sum);
		// The stalled holder writes once the others could take its lock over, if it was
		// lost; a killed holder is gone, one whose release was in flight went on already.
		// A stalled leader writes at once: if the fault left its term valid, no other
		// candidate can lead until it goes on
		boolean proceeds = stalled != null && step.fault() != NemesisFault.KILL
				&& step.fault() != NemesisFault.RELEASE_IN_FLIGHT;
		if (proceeds && worker.kind() == WorkerKind.LEADER) {
			worker.send("proceed");
		}
		awaitRecovery(step, healedAt);
		if (proceeds && worker.kind() != WorkerKind.LEADER) {
			worker.send("proceed");
		}
		this.run.report("#%d healed%s; every live worker held again within %d ms", step.number(), detail,
				FaultRunTests.millis(healedAt, this.run.now()));
	}

	/**
	 * The worker a step strikes: the live worker at its place, or, for a place of a
	 * leader worker, the one that leads now, if one does (a fault of a follower tells
	 * little, and only the leader can stall in a write).
	 */
	private WorkerProcess target(NemesisStep step) {
		WorkerProcess worker = this.live.get(step.worker());
		if (worker.kind() != WorkerKind.LEADER) {
			return worker;
		}
		return this.live.stream()
			.filter((candidate) -> candidate.kind() == WorkerKind.LEADER && candidate.history().leads())
			.findFirst()
			.orElse(worker);
	}

	/**
	 * Injects the step's fault, holds it for its duration and heals it.
	 * @return what the fault struck, if the step does not say it
	 */
	private String strike(NemesisStep step, WorkerProcess worker, HistoryEvent stalled) throws Exception {
		ZooKeeperEnsemble ensemble = this.run.ensemble();
		switch (step.fault()) {
			case KILL -> {
				this.run.kill(worker);
				WorkerProcess replacement = this.run.startReplacement(worker);
				this.live.set(this.live.indexOf(worker), replacement);
				return ", replaced by " + replacement;
			}
			case PAUSE -> {
				worker.pause();
				hold(step);
				worker.resume();
			}
			case SESSION_EXPIRY -> {
				worker.send("expire-session");
				hold(step);
			}
			case LEADER_KILL -> {
				ZooKeeperServerProcess leader = ensemble.leader();
				leader.kill();
				hold(step);
				leader.start();
				ensemble.awaitServing(RECOVERY);
				return " (" + leader + " killed; " + ensemble.leader() + " leads)";
			}
			case ENSEMBLE_RESTART -> {
				ensemble.stop();
				hold(step);
				ensemble.start();
				ensemble.awaitServing(RECOVERY);
			}
			case CUT_PAST_SESSION, CUT_WITHIN_SESSION -> {
				this.run.links().cutOff(worker);
				hold(step);
				this.run.links().heal(worker);
			}
			case CUT_FROM_SERVER -> {
				LinkProxy link = this.run.links().inUse(worker);
				link.cut();
				hold(step);
				link.heal();
				return " (" + link + ")";
			}
			case ISOLATED_SERVER -> {
				ZooKeeperServerProcess server = ensemble.servers().get(step.server());
				String mode = server.mode();
				this.run.serverLinks().isolate(server);
				hold(step);
				this.run.serverLinks().reconnect(server);
				ensemble.awaitServing(RECOVERY);
				return " (" + server + ", " + mode + " before)";
			}
			case LATENCY -> {
				this.run.links().of(worker).forEach((link) -> link.delay(step.delay()));
				hold(step);
				this.run.links().heal(worker);
			}
			case PACKET_LOSS -> {
				long dropsBefore = drops(worker);
				this.run.links().of(worker).forEach((link) -> link.dropAtRandom(step.dropRate()));
				hold(step);
				this.run.links().heal(worker);
				return " (" + (drops(worker) - dropsBefore) + " connections reset)";
			}
			case RELEASE_IN_FLIGHT -> {
				long cutAt = System.nanoTime();
				this.run.links().cutOff(worker);
				worker.send("proceed");
				HistoryEvent end = this.run.awaitEvent(worker, (event) -> FaultRunTests.endsHoldOf(event, stalled),
						RECOVERY);
				Thread.sleep(Math.max(0, step.duration().toMillis() - (System.nanoTime() - cutAt) / 1_000_000));
				this.run.links().heal(worker);
				return " (the hold ended " + end.type() + ")";
			}
		}
		return "";
	}

	private long drops(WorkerProcess worker) {
		return this.run.links().of(worker).stream().mapToLong(LinkProxy::drops).sum();
	}

	private static void hold(NemesisStep step) throws InterruptedException {
		Thread.sleep(step.duration().toMillis());
	}

	/**
	 * Waits until every live worker made a hold that did its work after the heal, but for
	 * the leader workers, of which one at a time leads: until one of them did. Records
	 * those that did not in time as violations.
	 */
	private void awaitRecovery(NemesisStep step, long healedAt) throws InterruptedException {
		List<WorkerProcess> candidates = this.live.stream()
			.filter((worker) -> worker.kind() == WorkerKind.LEADER)
			.toList();
		List<List<WorkerProcess>> awaited = new ArrayList<>();
		this.live.stream()
			.filter((worker) -> worker.kind() != WorkerKind.LEADER)
			.forEach((worker) -> awaited.add(List.of(worker)));
		if (!candidates.isEmpty()) {
			awaited.add(candidates);
		}
		for (List<WorkerProcess> workers : awaited) {
			try {
				this.run.awaitCompletedHold(workers, healedAt, RECOVERY);
			}
			catch (IllegalStateException ex) {
				this.violations.add(new Violation(Violation.Rule.PROGRESS,
						workers + " made no hold that did its work within " + RECOVERY + " of healing step " + step));
			}
		}
	}

}
