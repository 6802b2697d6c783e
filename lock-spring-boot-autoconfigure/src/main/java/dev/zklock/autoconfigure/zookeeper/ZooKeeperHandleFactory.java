package dev.zklock.autoconfigure.zookeeper;

import java.net.InetAddress;
import java.time.Duration;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * {@link ZookeeperFactory} of the auto-configured client's ZooKeeper handles. Their
 * server names resolve through a {@link ServerNameResolver}, so that a name that does not
 * resolve is reported once instead of once a second, and their close waits at most the
 * close timeout for ZooKeeper to end the session ({@link PromptlyClosingZooKeeper}), so
 * that an application shuts down promptly while ZooKeeper is down. The handles are
 * {@link ZooKeeper} clients, not {@link org.apache.zookeeper.admin.ZooKeeperAdmin} ones:
 * the locks never reconfigure the ensemble.
 */
final class ZooKeeperHandleFactory implements ZookeeperFactory {

	private final ServerNameResolver resolver;

	private final Duration closeTimeout;

	/**
	 * Creates a factory whose handles look the server names up with
	 * {@link InetAddress#getAllByName(String)}.
	 * @param closeTimeout how long a handle's close waits for ZooKeeper to end the
	 * session
	 */
	ZooKeeperHandleFactory(Duration closeTimeout) {
		this(InetAddress::getAllByName, closeTimeout);
	}

	/**
	 * Creates a factory whose handles look the server names up with the given resolver.
	 * @param resolver looks a server name up
	 * @param closeTimeout how long a handle's close waits for ZooKeeper to end the
	 * session
	 */
	ZooKeeperHandleFactory(StaticHostProvider.Resolver resolver, Duration closeTimeout) {
		this.resolver = new ServerNameResolver(resolver);
		this.closeTimeout = closeTimeout;
	}

	@Override
	public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
			throws Exception {
		return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
	}

	@Override
	public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			@Nullable ZKClientConfig clientConfig) throws Exception {
		StaticHostProvider hostProvider = new StaticHostProvider(
				new ConnectStringParser(connectString).getServerAddresses(), this.resolver);
		return new PromptlyClosingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, hostProvider,
				clientConfig, this.closeTimeout);
	}

}
