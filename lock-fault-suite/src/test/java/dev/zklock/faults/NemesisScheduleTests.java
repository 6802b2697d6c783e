package dev.zklock.faults;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedules of the nemesis are a function of their seed and minutes, and mix every fault.
 */
class NemesisScheduleTests {

	@Test
	void sameSeedAndMinutesDrawTheSameSchedule() {
		assertThat(NemesisSchedule.draw(42, 5)).isEqualTo(NemesisSchedule.draw(42, 5));
		assertThat(NemesisSchedule.draw(42, 5).lines()).isEqualTo(NemesisSchedule.draw(42, 5).lines());
	}

	@Test
	void otherSeedsDrawOtherSchedules() {
		assertThat(NemesisSchedule.draw(43, 5).steps()).isNotEqualTo(NemesisSchedule.draw(42, 5).steps());
	}

	@Test
	void everyRoundHoldsEveryFaultOnce() {
		List<NemesisStep> steps = NemesisSchedule.draw(7, 30).steps();
		int faults = NemesisFault.values().length;
		assertThat(steps).hasSizeGreaterThan(faults);
		assertThat(steps.size() % faults).isZero();
		for (int round = 0; round < steps.size(); round += faults) {
			assertThat(steps.subList(round, round + faults)).extracting(NemesisStep::fault)
				.containsExactlyInAnyOrder(NemesisFault.values());
		}
	}

	@Test
	void stepsFillTheMinutesWithinTheirRanges() {
		NemesisSchedule schedule = NemesisSchedule.draw(11, 2);
		Duration filled = schedule.steps().stream().map(NemesisStep::duration).reduce(Duration.ZERO, Duration::plus);
		assertThat(filled).isGreaterThanOrEqualTo(Duration.ofMinutes(2));
		assertThat(schedule.steps()).allSatisfy((step) -> {
			assertThat(step.duration()).isBetween(step.fault().minDuration(),
					step.fault().minDuration().plusMillis(step.fault().durationSpanMillis()));
			assertThat(step.worker()).isBetween(0, NemesisSchedule.WORKERS.size() - 1);
			assertThat(step.server()).isBetween(0, NemesisSchedule.SERVERS - 1);
		});
		assertThat(schedule.steps()).filteredOn((step) -> step.fault() == NemesisFault.LATENCY)
			.allSatisfy((step) -> assertThat(step.delay()).isBetween(Duration.ofMillis(100), Duration.ofSeconds(1)));
		assertThat(schedule.steps()).filteredOn((step) -> step.fault() == NemesisFault.PACKET_LOSS)
			.allSatisfy((step) -> assertThat(step.dropRate()).isBetween(0.01, 0.05));
		assertThat(schedule.steps()).extracting(NemesisStep::holding).containsAll(Set.of(true, false));
	}

}
