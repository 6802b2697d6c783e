package dev.zklock.docker.compose;

import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;

import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionDetailsFactory;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;

/**
 * {@link DockerComposeConnectionDetailsFactory} that makes
 * {@link ZooKeeperConnectionDetails} from a Docker Compose service of the
 * {@code zookeeper} image (or labelled
 * {@code org.springframework.boot.service-connection: zookeeper}): the locks connect to
 * the service's client port 2181 as published on the Docker host.
 */
class ZooKeeperDockerComposeConnectionDetailsFactory
		extends DockerComposeConnectionDetailsFactory<ZooKeeperConnectionDetails> {

	static final int CLIENT_PORT = 2181;

	ZooKeeperDockerComposeConnectionDetailsFactory() {
		super("zookeeper", "org.apache.curator.framework.CuratorFramework");
	}

	@Override
	protected ZooKeeperConnectionDetails getDockerComposeConnectionDetails(DockerComposeConnectionSource source) {
		return new ZooKeeperDockerComposeConnectionDetails(source.getRunningService());
	}

	/**
	 * {@link ZooKeeperConnectionDetails} of a running Docker Compose service.
	 */
	static final class ZooKeeperDockerComposeConnectionDetails extends DockerComposeConnectionDetails
			implements ZooKeeperConnectionDetails {

		private final String connectString;

		ZooKeeperDockerComposeConnectionDetails(RunningService service) {
			super(service);
			this.connectString = service.host() + ":" + service.ports().get(CLIENT_PORT);
		}

		@Override
		public String getConnectString() {
			return this.connectString;
		}

	}

}
