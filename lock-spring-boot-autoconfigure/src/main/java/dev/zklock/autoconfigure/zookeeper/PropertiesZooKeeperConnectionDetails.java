package dev.zklock.autoconfigure.zookeeper;

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
		return connectString;
	}

}
