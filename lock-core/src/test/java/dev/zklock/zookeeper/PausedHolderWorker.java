package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/**
 * The main class of a process that holds a lock in the eyes of its
 * {@link LockLossDetector}, for tests that pause the whole process ({@code SIGSTOP}) and
 * ask it afterwards what its detector saw. Arguments: the connect string, the session
 * timeout in milliseconds, and the {@link LostLockPolicy.Trigger}. It prints
 * {@code ready} once it holds the lock, then answers each line of its standard input:
 * {@code pauses} with {@code pauses <count>}, the pauses the detector found by itself,
 * and {@code held} with {@code held <true|false>}, whether the lock is held as far as the
 * process can tell now.
 */
final class PausedHolderWorker {

	private PausedHolderWorker() {
	}

	public static void main(String[] args) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[1]))
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
			System.out.println("not connected to " + args[0]);
			System.exit(1);
		}
		LockLossDetector detector = new LockLossDetector(client,
				new LostLockPolicy(LostLockPolicy.Trigger.valueOf(args[2]), Set.of()),
				new ScheduledThreadPoolExecutor(1));
		LockNode node = new LockNode("/locks/paused/lock-0000000000", LockNodeKind.EXCLUSIVE, 1,
				client.getZookeeperClient().getZooKeeper().getSessionId());
		LockKey.Hold hold = new LockKey.Hold(new LockKey("paused", HandOffPolicy.disabled()), node, 0,
				Thread.currentThread());
		detector.register(hold);
		System.out.println("ready");
		BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		for (String line = input.readLine(); line != null; line = input.readLine()) {
			switch (line) {
				case "pauses" -> System.out.println("pauses " + detector.pauses());
				case "held" -> System.out.println("held " + detector.isHeld(hold));
				default -> System.out.println("unknown command " + line);
			}
		}
		System.exit(0);
	}

}
