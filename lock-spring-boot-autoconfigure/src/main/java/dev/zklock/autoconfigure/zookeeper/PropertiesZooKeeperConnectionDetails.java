package dev.zklock.autoconfigure.zookeeper;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.zookeeper.client.ConnectStringParser;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * {@link ZooKeeperConnectionDetails} from {@link ZooKeeperProperties}. The connect string
 * may also be written as a list (in YAML, {@code [zk1:2181, zk2:2181]} or one item a
 * line), which the properties cannot bind to their string: its items are joined with
 * commas.
 */
final class PropertiesZooKeeperConnectionDetails implements ZooKeeperConnectionDetails {

	private static final String CONNECT_STRING = "distributed-lock.zookeeper.connect-string";

	private final ZooKeeperProperties properties;

	private final Binder binder;

	PropertiesZooKeeperConnectionDetails(ZooKeeperProperties properties, Binder binder) {
		this.properties = properties;
		this.binder = binder;
	}

	@Override
	public String getConnectString() {
		String connectString = this.properties.getConnectString();
		if (!StringUtils.hasText(connectString)) {
			connectString = this.binder.bind(CONNECT_STRING, Bindable.listOf(String.class))
				.map((servers) -> String.join(",", servers))
				.orElse(null);
		}
		if (!StringUtils.hasText(connectString)) {
			throw new MissingConnectStringException();
		}
		List<InetSocketAddress> servers;
		try {
			servers = new ConnectStringParser(connectString).getServerAddresses();
		}
		catch (IllegalArgumentException ex) {
			throw invalid(connectString, ex.getMessage());
		}
		if (servers.isEmpty()) {
			throw invalid(connectString, "it names no server");
		}
		for (InetSocketAddress server : servers) {
			if (!StringUtils.hasText(server.getHostString())) {
				throw invalid(connectString, "a server has no host name");
			}
		}
		return connectString;
	}

	private static InvalidConfigurationPropertyValueException invalid(String connectString, String problem) {
		return new InvalidConfigurationPropertyValueException(CONNECT_STRING, connectString,
				"It must be comma-separated host:port pairs, such as 'zk1:2181,zk2:2181': " + problem);
	}

}
