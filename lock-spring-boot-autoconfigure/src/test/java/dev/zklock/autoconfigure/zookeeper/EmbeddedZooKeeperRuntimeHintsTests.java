package dev.zklock.autoconfigure.zookeeper;

import org.apache.zookeeper.metrics.impl.DefaultMetricsProvider;
import org.apache.zookeeper.server.ConnectionMXBean;
import org.apache.zookeeper.server.DataTreeMXBean;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServerMXBean;
import org.apache.zookeeper.server.watch.WatchManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EmbeddedZooKeeperRuntimeHints}.
 */
class EmbeddedZooKeeperRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	EmbeddedZooKeeperRuntimeHintsTests() {
		new EmbeddedZooKeeperRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@ParameterizedTest
	@ValueSource(classes = { NIOServerCnxnFactory.class, DefaultMetricsProvider.class, WatchManager.class })
	void serverPartsCanBeCreatedByName(Class<?> type) throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(type.getDeclaredConstructor()))
			.accepts(this.hints);
	}

	@ParameterizedTest
	@ValueSource(classes = { ZooKeeperServerMXBean.class, DataTreeMXBean.class, ConnectionMXBean.class })
	void mxBeansCanBeIntrospectedAndInvoked(Class<?> mxBean) {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(mxBean)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
	}

	@Test
	void requiredClassesCanBeFoundByName() {
		assertThat(EmbeddedZooKeeperServer.REQUIRED_CLASSES).isNotEmpty()
			.allSatisfy((className,
					artifact) -> assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(className)))
						.accepts(this.hints));
	}

}
