package dev.zklock.autoconfigure.zookeeper;

/**
 * Thrown when the embedded ZooKeeper server cannot listen on its port because something
 * else does, typically the embedded server of another instance of the application.
 */
class EmbeddedServerPortInUseException extends IllegalStateException {

	private final int port;

	/**
	 * Creates the exception.
	 * @param port the port in use
	 * @param cause why the port could not be bound
	 */
	EmbeddedServerPortInUseException(int port, Throwable cause) {
		super("The embedded ZooKeeper server cannot listen on 127.0.0.1:" + port + " (distributed-lock.zookeeper."
				+ "embedded.port), which is in use; to lock together with the instance whose server that may be, set "
				+ "distributed-lock.zookeeper.connect-string=127.0.0.1:" + port
				+ " and distributed-lock.zookeeper.embedded.enabled=false", cause);
		this.port = port;
	}

	/**
	 * The port in use.
	 * @return the port
	 */
	int getPort() {
		return this.port;
	}

}
