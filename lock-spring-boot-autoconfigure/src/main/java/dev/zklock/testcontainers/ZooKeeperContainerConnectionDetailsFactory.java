package dev.zklock.testcontainers;

import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import org.testcontainers.containers.Container;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * {@link ContainerConnectionDetailsFactory} that makes {@link ZooKeeperConnectionDetails}
 * from a container of the {@code zookeeper} image (or any container whose
 * {@code @ServiceConnection} is named {@code zookeeper}) annotated with
 * {@code @ServiceConnection}: the locks connect to the container's client port 2181 as
 * mapped on the Docker host.
 */
class ZooKeeperContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<Container<?>, ZooKeeperConnectionDetails> {

	static final int CLIENT_PORT = 2181;

	ZooKeeperContainerConnectionDetailsFactory() {
		super("zookeeper", "org.apache.curator.framework.CuratorFramework");
	}

	@Override
	protected ZooKeeperConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
		return new ZooKeeperContainerConnectionDetails(source);
	}

	/**
	 * {@link ZooKeeperConnectionDetails} backed by a {@link ContainerConnectionSource}.
	 */
	static final class ZooKeeperContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
			implements ZooKeeperConnectionDetails {

		private ZooKeeperContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
			super(source);
		}

		@Override
		public String getConnectString() {
			Container<?> container = getContainer();
			return container.getHost() + ":" + container.getMappedPort(CLIENT_PORT);
		}

	}

}
