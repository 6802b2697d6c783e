package dev.zklock.faults;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The figures of a nemesis run, printed as one line: the seed and minutes that reproduce
 * its schedule, the faults injected by kind, the holds the checker went over, the writes
 * the fenced store accepted and refused, and the violations found by kind.
 *
 * @param seed the schedule's seed
 * @param minutes the schedule's minutes
 * @param faults the faults injected by kind
 * @param holds the holds checked
 * @param writesAccepted the writes the store accepted
 * @param writesRefused the writes the store refused
 * @param violations the violations found
 */
record NemesisFigures(long seed, int minutes, Map<NemesisFault, Integer> faults, long holds, long writesAccepted,
		long writesRefused, List<Violation> violations) {

	/**
	 * The figures of a run.
	 * @param schedule the schedule played
	 * @param faults the faults injected by kind
	 * @param record what the checker went over
	 * @param violations the violations found, by the checker and between faults
	 * @return the figures
	 */
	static NemesisFigures of(NemesisSchedule schedule, Map<NemesisFault, Integer> faults, RunRecord record,
			List<Violation> violations) {
		return new NemesisFigures(schedule.seed(), schedule.minutes(), faults, record.holdCount(),
				record.acceptedWrites(), record.refusedWrites(), violations);
	}

	/**
	 * The figures as one line, every kind of fault and of violation named, those that did
	 * not occur with {@code 0}.
	 * @return the line
	 */
	String line() {
		return "nemesis seed=" + this.seed + " minutes=" + this.minutes + " steps="
				+ this.faults.values().stream().mapToInt(Integer::intValue).sum() + " faults="
				+ byKind(Stream.of(NemesisFault.values()), (fault) -> this.faults.getOrDefault(fault, 0)) + " holds="
				+ this.holds + " writes-accepted=" + this.writesAccepted + " writes-refused=" + this.writesRefused
				+ " violations=" + byKind(Stream.of(Violation.Rule.values()),
						(rule) -> this.violations.stream().filter((violation) -> violation.rule() == rule).count());
	}

	private static <K extends Enum<K>> String byKind(Stream<K> kinds, Function<K, Number> count) {
		return kinds.map((kind) -> label(kind) + ":" + count.apply(kind)).collect(Collectors.joining(","));
	}

	/**
	 * The name of a kind of fault or violation in the figures.
	 * @param kind the kind
	 * @return its name in lower case, words joined by dashes
	 */
	static String label(Enum<?> kind) {
		return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
