package dev.zklock.autoconfigure.zookeeper;

/**
 * Thrown at start-up when neither a ZooKeeper connect string nor the embedded server is
 * configured.
 */
public class MissingConnectStringException extends IllegalStateException {

	MissingConnectStringException() {
		super("No ZooKeeper ensemble is configured: set 'distributed-lock.zookeeper.connect-string' or "
				+ "'distributed-lock.zookeeper.embedded.enabled=true'");
	}

}
