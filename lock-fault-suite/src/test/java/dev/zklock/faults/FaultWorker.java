package dev.zklock.faults;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockHandle;
import dev.zklock.LockTemplate;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A worker process of the fault suite: a Spring application with the starter whose
 * threads increment counters in the {@link FencedStore} under locks, recording every step
 * in a history file.
 * <p>
 * Arguments: the worker's name, the ZooKeeper connect string, the store's address, the
 * history file, the number of threads, the comma-separated keys and the wait time in
 * milliseconds. Commands arrive as lines on standard input: {@code stall MILLIS} (the
 * next thread to take a lock sleeps that long between reading and writing the store),
 * {@code write-late} (the next thread to take a lock reads the store under it, releases
 * it, and writes what it read once a later holder has written, as a write delayed in the
 * network would arrive), {@code expire-session} (expire the ZooKeeper session on the
 * client side, as ZooKeeper would after a partition) and {@code stop} (finish the current
 * iterations and exit; the end of the input does the same).
 */
public final class FaultWorker {

	/** Session timeout of the workers, short so that faults clear within seconds. */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	private final LockTemplate lockTemplate;

	private final FencedStoreClient store;

	private final HistoryRecorder history;

	private final List<String> keys;

	private final Duration waitTime;

	private final AtomicReference<Duration> pendingStall = new AtomicReference<>();

	private final AtomicBoolean pendingLateWrite = new AtomicBoolean();

	private volatile boolean stopping;

	private FaultWorker(LockTemplate lockTemplate, FencedStoreClient store, HistoryRecorder history, List<String> keys,
			Duration waitTime) {
		this.lockTemplate = lockTemplate;
		this.store = store;
		this.history = history;
		this.keys = keys;
		this.waitTime = waitTime;
	}

	public static void main(String[] args) throws Exception {
		String name = args[0];
		Thread.currentThread().setName(name + "-commands");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WorkerConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--distributed-lock.zookeeper.connect-string=" + args[1],
					"--distributed-lock.zookeeper.session-timeout=" + SESSION_TIMEOUT.toMillis() + "ms",
					"--distributed-lock.zookeeper.connection-timeout=3s", "--distributed-lock.root-path=/fault-locks");
				HistoryRecorder history = new HistoryRecorder(Path.of(args[3]))) {
			FaultWorker worker = new FaultWorker(context.getBean(LockTemplate.class),
					new FencedStoreClient(URI.create(args[2])), history, List.of(args[5].split(",")),
					Duration.ofMillis(Long.parseLong(args[6])));
			List<Thread> threads = worker.startThreads(name, Integer.parseInt(args[4]));
			worker.obeyCommands(context.getBean(CuratorFramework.class));
			for (Thread thread : threads) {
				thread.join();
			}
		}
		System.exit(0);
	}

	private List<Thread> startThreads(String name, int count) {
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Thread thread = new Thread(this::lockUntilStopped, name + "-t" + i);
			thread.start();
			threads.add(thread);
		}
		return threads;
	}

	private void obeyCommands(CuratorFramework curator) throws Exception {
		BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String command;
		while ((command = input.readLine()) != null && !command.equals("stop")) {
			this.history.record(HistoryEvent.Type.COMMAND, "-", 0, command);
			if (command.equals("expire-session")) {
				curator.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			}
			else if (command.equals("write-late")) {
				this.pendingLateWrite.set(true);
			}
			else if (command.startsWith("stall ")) {
				this.pendingStall.set(Duration.ofMillis(Long.parseLong(command.substring(6))));
			}
		}
		this.history.record(HistoryEvent.Type.COMMAND, "-", 0, "stop");
		this.stopping = true;
	}

	private void lockUntilStopped() {
		this.history.record(HistoryEvent.Type.STARTED, "-", 0, "");
		while (!this.stopping) {
			String key = this.keys.get(ThreadLocalRandom.current().nextInt(this.keys.size()));
			try {
				if (this.pendingLateWrite.compareAndSet(true, false)) {
					writeLate(key);
				}
				else {
					long token = this.lockTemplate.execute(key, this.waitTime, this::increment);
					this.history.record(HistoryEvent.Type.RELEASED, key, token, "");
				}
			}
			catch (RuntimeException ex) {
				// LockException and its subtypes above all; the store's failures too
				this.history.record(HistoryEvent.Type.FAILED, key, 0, ex.getClass().getSimpleName());
				System.err.println(Thread.currentThread().getName() + " failed on '" + key + "': " + ex);
			}
			pause(Duration.ofMillis(10));
		}
		this.history.record(HistoryEvent.Type.STOPPED, "-", 0, "");
	}

	/**
	 * The critical section: read the key's counter, write it back incremented with the
	 * hold's fencing token, then ask whether the lock is still held, so that a holder
	 * that was paused records what it saw after its write.
	 */
	private long increment(LockHandle lock) {
		String key = lock.key();
		long token = lock.fencingToken();
		this.history.record(HistoryEvent.Type.ACQUIRED, key, token, "");
		long value = this.store.read(key);
		this.history.record(HistoryEvent.Type.READ, key, token, Long.toString(value));
		Duration stall = this.pendingStall.getAndSet(null);
		if (stall != null) {
			this.history.record(HistoryEvent.Type.STALL, key, token, Long.toString(stall.toMillis()));
			pause(stall);
		}
		else {
			pause(Duration.ofMillis(5));
		}
		boolean accepted = this.store.write(key, token, value + 1);
		this.history.record(HistoryEvent.Type.WRITE, key, token, (value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
		this.history.record(HistoryEvent.Type.VALID, key, token, Boolean.toString(lock.isValid()));
		return token;
	}

	/**
	 * Reads the key's counter under its lock, releases the lock, and once a later holder
	 * has written the counter, writes what it read, incremented, with its own token: the
	 * store must refuse it.
	 */
	private void writeLate(String key) {
		long[] tokenAndValue = this.lockTemplate.execute(key, this.waitTime, (lock) -> {
			this.history.record(HistoryEvent.Type.ACQUIRED, key, lock.fencingToken(), "");
			long value = this.store.read(key);
			this.history.record(HistoryEvent.Type.READ, key, lock.fencingToken(), Long.toString(value));
			return new long[] { lock.fencingToken(), value };
		});
		long token = tokenAndValue[0];
		long value = tokenAndValue[1];
		this.history.record(HistoryEvent.Type.RELEASED, key, token, "");
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (this.store.read(key) == value && System.nanoTime() - deadline < 0) {
			pause(Duration.ofMillis(5));
		}
		boolean accepted = this.store.write(key, token, value + 1);
		this.history.record(HistoryEvent.Type.LATE_WRITE, key, token,
				(value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
	}

	private static void pause(Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		long remaining;
		while ((remaining = deadline - System.nanoTime()) > 0) {
			try {
				Thread.sleep(Math.max(1, remaining / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WorkerConfiguration {

	}

}
