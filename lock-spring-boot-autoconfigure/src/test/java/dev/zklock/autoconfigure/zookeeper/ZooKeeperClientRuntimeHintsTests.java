package dev.zklock.autoconfigure.zookeeper;

import org.apache.zookeeper.ClientCnxnSocketNIO;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZooKeeperClientRuntimeHints}.
 */
class ZooKeeperClientRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	ZooKeeperClientRuntimeHintsTests() {
		new ZooKeeperClientRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@ParameterizedTest
	@ValueSource(classes = { ClientCnxnSocketNIO.class, ClientCnxnSocketNetty.class })
	void socketsCanBeCreatedByName(Class<?> socket) throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(socket.getDeclaredConstructor(ZKClientConfig.class))).accepts(this.hints);
	}

	@ParameterizedTest
	@ValueSource(strings = { "ZKClientHandler", "ZKClientPipelineFactory" })
	void nettyChannelHandlersCanBeIntrospected(String handler) throws ClassNotFoundException {
		Class<?> handlerClass = Class.forName(ClientCnxnSocketNetty.class.getName() + "$" + handler);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(handlerClass)
			.withMemberCategory(MemberCategory.INTROSPECT_PUBLIC_METHODS)).accepts(this.hints);
	}

}
