package dev.zklock.autoconfigure.zookeeper;

import java.net.InetAddress;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * {@link ZookeeperFactory} whose ZooKeeper handles resolve the server names through a
 * {@link ServerNameResolver}, so that a name that does not resolve is reported once
 * instead of once a second. The handles are plain {@link ZooKeeper} clients, not
 * {@link org.apache.zookeeper.admin.ZooKeeperAdmin} ones: the locks never reconfigure the
 * ensemble.
 */
final class ServerNameResolvingZookeeperFactory implements ZookeeperFactory {

	private final ServerNameResolver resolver;

	/**
	 * Creates a factory whose handles look the server names up with
	 * {@link InetAddress#getAllByName(String)}.
	 */
	ServerNameResolvingZookeeperFactory() {
		this(InetAddress::getAllByName);
	}

	/**
	 * Creates a factory whose handles look the server names up with the given resolver.
	 * @param resolver looks a server name up
	 */
	ServerNameResolvingZookeeperFactory(StaticHostProvider.Resolver resolver) {
		this.resolver = new ServerNameResolver(resolver);
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
		return new ZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, hostProvider, clientConfig);
	}

}
