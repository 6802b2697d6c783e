package dev.zklock.benchmarks;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Variant}.
 */
class VariantTests {

	@Test
	void aLibraryNameIsTheLibraryAsItComes() {
		Variant variant = Variant.parse("spring-integration");
		assertThat(variant).isEqualTo(new Variant("spring-integration", Library.SPRING_INTEGRATION, Map.of()));
		assertThat(variant.rootPath()).isEqualTo("/bench/spring-integration");
	}

	@Test
	void aNamedVariantCarriesPropertiesToZkLock() {
		Variant variant = Variant.parse(
				"ours-no-handoff=ours-template:distributed-lock.hand-off.enabled=false,distributed-lock.wait-time=3s");
		assertThat(variant.name()).isEqualTo("ours-no-handoff");
		assertThat(variant.library()).isEqualTo(Library.OURS_TEMPLATE);
		assertThat(variant.properties()).containsOnly(Map.entry("distributed-lock.hand-off.enabled", "false"),
				Map.entry("distributed-lock.wait-time", "3s"));
		assertThat(variant.isBaseline()).isFalse();
	}

	@Test
	void theTextFormReadsBackAsTheSameVariant() {
		Variant variant = Variant.parse("quick=ours-annotation:distributed-lock.wait-time=1s");
		assertThat(Variant.parse(variant.toText())).isEqualTo(variant);
		assertThat(Variant.parse(Variant.of(Library.CURATOR).toText()).isBaseline()).isTrue();
	}

	@Test
	void theLimitsRunOnlyInTheScenariosTheyAreTheLimitOf() {
		assertThat(Variant.parse("set-data").isLimit()).isTrue();
		assertThat(Scenario.values()).filteredOn(Library.SET_DATA::runsIn)
			.containsExactly(Scenario.UNCONTENDED, Scenario.WRITE_RATE);
		assertThat(Variant.parse("queue-node").isLimit()).isTrue();
		assertThat(Scenario.values()).filteredOn(Library.QUEUE_NODE::runsIn)
			.containsExactly(Scenario.UNCONTENDED, Scenario.SIXTEEN_KEYS);
		assertThat(Scenario.values()).filteredOn(Library.FAIR_LOCAL_LOCK::runsIn)
			.containsExactly(Scenario.HOT_KEY, Scenario.TWO_JVMS, Scenario.VIRTUAL_THREADS);
		assertThat(Library.FAIR_LOCAL_LOCK.excludesAcrossJvms()).isFalse();
		assertThat(Scenario.values()).filteredOn(Library.OURS_TEMPLATE::runsIn)
			.containsExactly(Scenario.UNCONTENDED, Scenario.HOT_KEY, Scenario.TWO_JVMS, Scenario.SIXTEEN_KEYS,
					Scenario.RANDOM_KEYS, Scenario.MANY_KEYS, Scenario.VIRTUAL_THREADS);
		assertThat(Variant.parse("ours-template").isLimit()).isFalse();
	}

	@Test
	void thePeersRunOnlyWhenNamedAndEachOnItsServer() {
		assertThat(BenchmarkOptions.parse().variants()).extracting(Variant::library)
			.noneMatch(Library::isPeer)
			.contains(Library.OURS_TEMPLATE, Library.CURATOR);
		assertThat(Variant.parse("redisson-fenced-fsync").library().peerServer()).contains(PeerServer.REDIS_FSYNC);
		assertThat(Variant.parse("shedlock").library().peerServer()).contains(PeerServer.POSTGRESQL);
		assertThat(Scenario.values()).filteredOn(Library.JDBC_REGISTRY::runsIn)
			.containsExactly(Scenario.UNCONTENDED, Scenario.HOT_KEY, Scenario.TWO_JVMS, Scenario.SIXTEEN_KEYS,
					Scenario.RANDOM_KEYS, Scenario.MANY_KEYS, Scenario.VIRTUAL_THREADS);
		assertThat(Library.REDISSON.isConfigurable()).isFalse();
	}

	@Test
	void propertiesOfAnotherLibraryAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> Variant.parse("tuned=curator:retries=3"))
			.withMessageContaining("only zklock and queue-node");
		assertThat(QueueNodeDriver.sessions(Variant.parse("floor-4=queue-node:sessions=4").properties())).isEqualTo(4);
		assertThat(QueueNodeDriver.sessions(Variant.parse("queue-node").properties())).isOne();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> QueueNodeDriver.sessions(Variant.parse("floor=queue-node:sessions=0").properties()))
			.withMessage("queue-node's property 'sessions' must be a whole number of at least 1, not '0'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> QueueNodeDriver.sessions(Variant.parse("floor=queue-node:clients=2").properties()))
			.withMessage("queue-node takes only the property 'sessions', not [clients]");
	}

	@Test
	void anUnknownLibraryIsRejectedWithTheKnownOnes() {
		assertThatIllegalArgumentException().isThrownBy(() -> Variant.parse("hazelcast"))
			.withMessageContaining("curator, spring-integration, ours-annotation, ours-template, redisson");
	}

}
