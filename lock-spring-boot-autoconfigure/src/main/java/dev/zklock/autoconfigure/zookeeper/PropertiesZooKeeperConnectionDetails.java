package dev.zklock.autoconfigure.zookeeper;

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
		try {
			new ConnectStringParser(connectString);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.zookeeper.connect-string",
					connectString,
					"It must be comma-separated host:port pairs, such as 'zk1:2181,zk2:2181': " + ex.getMessage());
		}
		return connectString;
	}

}
