package dev.zklock.testcontainers;

import java.util.function.IntSupplier;

import org.testcontainers.containers.GenericContainer;

/**
 * A container of the {@code zookeeper} image that Docker never runs: it answers the
 * Docker host and mapped port questions with a ZooKeeper server in this JVM, so that the
 * service connection code paths run without a Docker engine.
 */
class InProcessZooKeeperContainer extends GenericContainer<InProcessZooKeeperContainer> {

	private final String imageName;

	private final IntSupplier port;

	InProcessZooKeeperContainer(String imageName, IntSupplier port) {
		super(imageName);
		this.imageName = imageName;
		this.port = port;
	}

	@Override
	public String getDockerImageName() {
		return this.imageName;
	}

	@Override
	public String getHost() {
		return "127.0.0.1";
	}

	@Override
	public Integer getMappedPort(int originalPort) {
		if (originalPort != 2181) {
			throw new IllegalArgumentException("Only the client port 2181 is exposed, not " + originalPort);
		}
		return this.port.getAsInt();
	}

	@Override
	public boolean isRunning() {
		return true;
	}

	@Override
	public void start() {
	}

	@Override
	public void stop() {
	}

}
