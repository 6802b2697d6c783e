package dev.zklock.autoconfigure.zookeeper;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Details of how to reach a ZooKeeper ensemble. Define a bean of this type to supply them
 * from somewhere other than {@code distributed-lock.zookeeper.connect-string}.
 */
public interface ZooKeeperConnectionDetails extends ConnectionDetails {

	/**
	 * Comma-separated host:port pairs of the ensemble.
	 * @return the connect string
	 */
	String getConnectString();

}
