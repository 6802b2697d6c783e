package dev.zklock.autoconfigure.zookeeper;

import java.net.InetSocketAddress;
import java.util.List;

import org.apache.zookeeper.client.ConnectStringParser;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * {@link ZooKeeperConnectionDetails} from {@link ZooKeeperProperties}.
 */
final class PropertiesZooKeeperConnectionDetails implements ZooKeeperConnectionDetails {

	private final ZooKeeperProperties properties;

	PropertiesZooKeeperConnectionDetails(ZooKeeperProperties properties) {
		this.properties = properties;
	}

	@Override
	public String getConnectString() {
		String connectString = this.properties.getConnectString();
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
		return new InvalidConfigurationPropertyValueException("distributed-lock.zookeeper.connect-string",
				connectString, "It must be comma-separated host:port pairs, such as 'zk1:2181,zk2:2181': " + problem);
	}

}
