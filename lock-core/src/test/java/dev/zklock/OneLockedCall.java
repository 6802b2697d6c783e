package dev.zklock;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/**
 * A process that builds a registry and a {@link LockTemplate} and runs one call under a
 * lock, for {@link OneCallTypesTests}, which counts the types it loads.
 */
public final class OneLockedCall {

	private OneLockedCall() {
	}

	public static void main(String[] args) throws Exception {
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[0], new RetryOneTime(100))) {
			client.start();
			if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
				System.exit(1);
			}
			try (ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks")) {
				LockTemplate template = new LockTemplate(registry, Duration.ofSeconds(10));
				template.execute("order:42", (lock) -> lock.fencingToken());
			}
		}
		System.exit(0);
	}

}
