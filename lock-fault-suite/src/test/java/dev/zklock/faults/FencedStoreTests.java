package dev.zklock.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fenced store over HTTP, in the interleaving that a holder stalled inside its
 * critical section meets when the nemesis lets it go on: the next holder of the key has
 * read the counter but not written it yet when the stalled holder writes.
 */
class FencedStoreTests {

	private final HistoryChecker checker = new HistoryChecker(Duration.ofSeconds(10));

	@Test
	void writeOfAPausedHolderAfterTheNextHolderReadIsRefused() throws Exception {
		try (FencedStore store = new FencedStore()) {
			FencedStoreClient client = new FencedStoreClient(store.uri());
			long paused = client.read("beta", 1);
			long next = client.read("beta", 2);
			assertThat(client.write("beta", 1, paused + 1)).isFalse();
			assertThat(client.write("beta", 2, next + 1)).isTrue();
			assertThat(client.read("beta")).isEqualTo(1);
			assertThat(this.checker.check(run(store))).isEmpty();
			assertThat(store.log()).extracting(StoreEntry::format)
				.map((line) -> line.substring(line.indexOf('\t') + 1))
				.containsExactly("beta\t1\t0\tREAD", "beta\t2\t0\tREAD", "beta\t1\t1\tREJECTED",
						"beta\t2\t1\tACCEPTED");
		}
	}

	@Test
	void readOfAnOlderHolderLowersNoFence() throws Exception {
		try (FencedStore store = new FencedStore()) {
			FencedStoreClient client = new FencedStoreClient(store.uri());
			assertThat(client.write("beta", 2, client.read("beta", 2) + 1)).isTrue();
			client.read("beta", 1);
			assertThat(client.write("beta", 1, 2)).isFalse();
			assertThat(client.write("beta", 2, 2)).isTrue();
			assertThat(this.checker.check(run(store))).isEmpty();
		}
	}

	private static RunRecord run(FencedStore store) {
		return new RunRecord(List.of(), store.log(), Map.of("beta", store.read("beta")), 0, store.now(), Set.of());
	}

}
