package dev.zklock.autoconfigure.zookeeper;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;

/**
 * The Curator clients of the lock registry's sessions beyond the auto-configured
 * {@link CuratorFramework}'s: {@code distributed-lock.zookeeper.sessions} minus one, each
 * built like that client and a ZooKeeper session of its own, none by default. They are
 * started when they are made and closed with the application context. The
 * auto-configuration makes none when the application defines its own
 * {@code CuratorFramework} or lock registry.
 */
public final class LockSessionClients {

	private final List<CuratorFramework> clients;

	LockSessionClients(List<CuratorFramework> clients) {
		this.clients = List.copyOf(clients);
	}

	/**
	 * The clients, started, each a session of its own.
	 * @return the clients, empty for a registry of one session
	 */
	public List<CuratorFramework> clients() {
		return this.clients;
	}

	/**
	 * Closes the clients, which ends their sessions; called when the application context
	 * closes. They close at once, each on a thread of its own, so that while ZooKeeper is
	 * down or frozen their waits for it
	 * ({@code distributed-lock.zookeeper.close-timeout}) overlap instead of adding up.
	 */
	public void close() {
		List<Thread> closing = new ArrayList<>(this.clients.size());
		for (CuratorFramework client : this.clients) {
			Thread thread = new Thread(client::close, "zklock-session-close");
			thread.setDaemon(true);
			thread.start();
			closing.add(thread);
		}
		try {
			for (Thread thread : closing) {
				thread.join();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
