package dev.zklock.autoconfigure.zookeeper;

import java.util.List;

import org.apache.zookeeper.ClientCnxnSocketNIO;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * The reflection that ZooKeeper's client needs in a native image. The client creates its
 * socket by class name ({@code zookeeper.clientCnxnSocket}): {@link ClientCnxnSocketNIO}
 * by default, {@link ClientCnxnSocketNetty} for TLS, which zklock's
 * {@code distributed-lock.zookeeper.ssl.*} chooses. Netty looks up the public methods of
 * the Netty socket's channel handlers to learn which events they handle.
 */
class ZooKeeperClientRuntimeHints implements RuntimeHintsRegistrar {

	private static final List<TypeReference> SOCKET_CONSTRUCTOR = List.of(TypeReference.of(ZKClientConfig.class));

	private static final List<String> NETTY_CHANNEL_HANDLERS = List.of(
			"org.apache.zookeeper.ClientCnxnSocketNetty$ZKClientHandler",
			"org.apache.zookeeper.ClientCnxnSocketNetty$ZKClientPipelineFactory");

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (Class<?> socket : List.of(ClientCnxnSocketNIO.class, ClientCnxnSocketNetty.class)) {
			hints.reflection()
				.registerType(socket, (hint) -> hint.withConstructor(SOCKET_CONSTRUCTOR, ExecutableMode.INVOKE));
		}
		for (String handler : NETTY_CHANNEL_HANDLERS) {
			hints.reflection().registerType(TypeReference.of(handler), MemberCategory.INTROSPECT_PUBLIC_METHODS);
		}
	}

}
