package dev.zklock.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RunEndpoints}.
 */
class RunEndpointsTests {

	@Test
	void theTextFormReadsBackAsTheSameEndpoints() {
		RunEndpoints endpoints = new RunEndpoints("127.0.0.1:2181", "127.0.0.1:6379", null,
				"jdbc:postgresql://127.0.0.1:5432/bench?user=postgres");
		assertThat(endpoints.toText()).isEqualTo("zookeeper=127.0.0.1:2181 redis=127.0.0.1:6379 "
				+ "postgresql=jdbc:postgresql://127.0.0.1:5432/bench?user=postgres");
		assertThat(RunEndpoints.parse(endpoints.toText())).isEqualTo(endpoints);
		assertThat(RunEndpoints.parse(RunEndpoints.zooKeeper("a:1,b:2").toText()).zooKeeper()).isEqualTo("a:1,b:2");
	}

	@Test
	void aServerThatTheRunDidNotStartIsNamedWhenADriverNeedsIt() {
		RunEndpoints endpoints = RunEndpoints.zooKeeper("127.0.0.1:2181");
		assertThatIllegalStateException().isThrownBy(() -> endpoints.redisAddress(true))
			.withMessage("The run started no redis-fsync server");
		assertThatIllegalStateException().isThrownBy(endpoints::postgresqlUrl)
			.withMessage("The run started no postgresql server");
	}

	@Test
	void anUnknownEndpointIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> RunEndpoints.parse("zookeeper=a:1 mongodb=b:2"))
			.withMessageContaining("'mongodb=b:2'");
		assertThatIllegalArgumentException().isThrownBy(() -> RunEndpoints.parse("redis=b:2"))
			.withMessageContaining("no ZooKeeper connect string");
	}

}
