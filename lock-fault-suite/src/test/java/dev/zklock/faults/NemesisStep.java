package dev.zklock.faults;

import java.time.Duration;
import java.util.Locale;

/**
 * One step of a {@link NemesisSchedule}: a fault, what it strikes, and for how long.
 * Workers are named by their place among the live workers, which a killed worker's
 * replacement takes over, and servers by their place in the ensemble, so that the step
 * means the same in every run.
 *
 * @param number the step's number in the schedule, from 1
 * @param fault the fault
 * @param worker the place of the worker it strikes; for a fault of ZooKeeper, of the
 * worker whose holder spans it, if one does
 * @param server the place of the server it isolates ({@link NemesisFault#ISOLATED_SERVER}
 * only)
 * @param holding whether the fault strikes while a thread of the worker holds a lock,
 * stalled between reading and writing the store until the run recovered from the fault
 * @param duration how long the fault lasts
 * @param delay the delay added each way on the worker's links
 * ({@link NemesisFault#LATENCY} only, zero otherwise)
 * @param dropRate the probability of a reset per chunk and per new connection on the
 * worker's links ({@link NemesisFault#PACKET_LOSS} only, zero otherwise)
 */
record NemesisStep(int number, NemesisFault fault, int worker, int server, boolean holding, Duration duration,
		Duration delay, double dropRate) {

	@Override
	public String toString() {
		StringBuilder step = new StringBuilder("#" + this.number + " " + NemesisFigures.label(this.fault));
		if (this.fault == NemesisFault.ISOLATED_SERVER) {
			step.append(" server ").append(this.server + 1);
		}
		else if (this.fault.hitsWorker()) {
			step.append(" worker ").append(this.worker + 1);
		}
		if (this.fault == NemesisFault.LATENCY) {
			step.append(" +").append(this.delay.toMillis()).append(" ms each way");
		}
		if (this.fault == NemesisFault.PACKET_LOSS) {
			step.append(" ").append(String.format(Locale.ROOT, "%.1f", this.dropRate * 100)).append(" % resets");
		}
		if (this.fault != NemesisFault.KILL) {
			step.append(" for ").append(this.duration.toMillis()).append(" ms");
		}
		if (this.holding) {
			step.append(", while worker ").append(this.worker + 1).append(" holds a lock");
		}
		return step.toString();
	}

}
