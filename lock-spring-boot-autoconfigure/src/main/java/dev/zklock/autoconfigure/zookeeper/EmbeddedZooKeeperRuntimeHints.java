package dev.zklock.autoconfigure.zookeeper;

import java.util.List;

import org.apache.zookeeper.metrics.impl.DefaultMetricsProvider;
import org.apache.zookeeper.server.ConnectionMXBean;
import org.apache.zookeeper.server.DataTreeMXBean;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServerMXBean;
import org.apache.zookeeper.server.watch.WatchManager;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * The reflection that the {@link EmbeddedZooKeeperServer} needs in a native image. The
 * server creates its connection factory, its metrics provider and its watch managers by
 * class name, and registers MXBeans for itself, its data tree and each connection, which
 * JMX introspects. The server checks for its optional dependencies by class name too.
 */
class EmbeddedZooKeeperRuntimeHints implements RuntimeHintsRegistrar {

	private static final List<Class<?>> CREATED_BY_NAME = List.of(NIOServerCnxnFactory.class,
			DefaultMetricsProvider.class, WatchManager.class);

	private static final List<Class<?>> MXBEANS = List.of(ZooKeeperServerMXBean.class, DataTreeMXBean.class,
			ConnectionMXBean.class);

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (Class<?> type : CREATED_BY_NAME) {
			hints.reflection().registerType(type, (hint) -> hint.withConstructor(List.of(), ExecutableMode.INVOKE));
		}
		for (Class<?> mxBean : MXBEANS) {
			hints.reflection().registerType(mxBean, MemberCategory.INVOKE_PUBLIC_METHODS);
		}
		for (String requiredClass : EmbeddedZooKeeperServer.REQUIRED_CLASSES.keySet()) {
			hints.reflection().registerType(TypeReference.of(requiredClass));
		}
	}

}
