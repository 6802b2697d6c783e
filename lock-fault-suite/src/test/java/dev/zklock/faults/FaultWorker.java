package dev.zklock.faults;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import dev.zklock.LockTemplate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A worker process of the fault suite: a Spring application with the starter whose
 * threads increment counters in the {@link FencedStore} under locks, recording every step
 * in the store's history of the run, and every change of its connection to ZooKeeper.
 * <p>
 * Arguments: the worker's name, the ZooKeeper connect string, the store's address, the
 * number of threads, the comma-separated keys and the wait time in milliseconds, then any
 * number of {@code --name=value} properties of the application, which replace the
 * worker's defaults. Besides the starter's, {@code fault-worker.ignores-loss=true} makes
 * a worker that ignores the loss of its locks: it records every validity sample as
 * {@code true} without asking (with {@code distributed-lock.lost-lock.actions=} empty,
 * nothing else tells it either), as an application that never checks would believe.
 * <p>
 * Commands arrive as lines on standard input: {@code stall MILLIS} (the next thread to
 * take a lock sleeps that long between reading and writing the store, or until
 * {@code proceed}), {@code proceed} (ends the stalls under way), {@code write-late} (the
 * next thread to take a lock reads the store under it, releases it, and writes what it
 * read once a later holder has written, as a write delayed in the network would arrive),
 * {@code skip-lock} (the next thread runs its critical section once without the lock,
 * reusing the token of its last hold and believing it valid, as a caller that forgot to
 * lock would), {@code expire-session} (expire the ZooKeeper session on the client side,
 * as ZooKeeper would after a partition) and {@code stop} (finish the current iterations
 * and exit; the end of the input does the same).
 */
public final class FaultWorker {

	/**
	 * Session timeout of the workers unless a run sets another, short so that faults
	 * clear within seconds.
	 */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	/** How long a thread stalls when it skips the lock, so that real holds overlap it. */
	private static final Duration SKIPPED_LOCK_STALL = Duration.ofMillis(300);

	private final LockTemplate lockTemplate;

	private final FencedStoreClient store;

	private final HistoryRecorder history;

	private final List<String> keys;

	private final Duration waitTime;

	private final AtomicReference<Duration> pendingStall = new AtomicReference<>();

	private final AtomicBoolean pendingLateWrite = new AtomicBoolean();

	private final AtomicBoolean pendingSkippedLock = new AtomicBoolean();

	private final AtomicInteger proceeds = new AtomicInteger();

	private final ThreadLocal<Long> lastToken = ThreadLocal.withInitial(() -> 1L);

	private final boolean ignoresLoss;

	private volatile boolean stopping;

	private FaultWorker(LockTemplate lockTemplate, FencedStoreClient store, HistoryRecorder history, List<String> keys,
			Duration waitTime, boolean ignoresLoss) {
		this.lockTemplate = lockTemplate;
		this.store = store;
		this.history = history;
		this.keys = keys;
		this.waitTime = waitTime;
		this.ignoresLoss = ignoresLoss;
	}

	public static void main(String[] args) throws Exception {
		String name = args[0];
		Thread.currentThread().setName(name + "-commands");
		FencedStoreClient store = new FencedStoreClient(URI.create(args[2]));
		HistoryRecorder history = new HistoryRecorder(name, store);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WorkerConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run(properties(args[1], Arrays.asList(args).subList(6, args.length)))) {
			CuratorFramework curator = context.getBean(CuratorFramework.class);
			curator.getConnectionStateListenable()
				.addListener((client, state) -> history.record(HistoryEvent.Type.CONNECTION, "-", 0,
						state + " 0x" + Long.toHexString(sessionId(client, state))));
			FaultWorker worker = new FaultWorker(context.getBean(LockTemplate.class), store, history,
					List.of(args[4].split(",")), Duration.ofMillis(Long.parseLong(args[5])),
					context.getEnvironment().getProperty("fault-worker.ignores-loss", Boolean.class, false));
			List<Thread> threads = worker.startThreads(name, Integer.parseInt(args[3]));
			worker.obeyCommands(curator);
			for (Thread thread : threads) {
				thread.join();
			}
		}
		System.exit(0);
	}

	/**
	 * The application's properties: the worker's defaults, replaced by those given.
	 */
	private static String[] properties(String connectString, List<String> given) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("distributed-lock.zookeeper.connect-string", connectString);
		properties.put("distributed-lock.zookeeper.session-timeout", SESSION_TIMEOUT.toMillis() + "ms");
		properties.put("distributed-lock.zookeeper.connection-timeout", "3s");
		properties.put("distributed-lock.root-path", "/fault-locks");
		for (String property : given) {
			int equals = property.indexOf('=');
			properties.put(property.substring(2, equals), property.substring(equals + 1));
		}
		return properties.entrySet()
			.stream()
			.map((property) -> "--" + property.getKey() + "=" + property.getValue())
			.toArray(String[]::new);
	}

	/**
	 * The session of the client, or {@code 0} once it was lost.
	 */
	private static long sessionId(CuratorFramework client, ConnectionState state) {
		try {
			return (state != ConnectionState.LOST) ? client.getZookeeperClient().getZooKeeper().getSessionId() : 0;
		}
		catch (Exception ex) {
			return 0;
		}
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
			else if (command.equals("skip-lock")) {
				this.pendingSkippedLock.set(true);
			}
			else if (command.equals("proceed")) {
				this.proceeds.incrementAndGet();
			}
			else if (command.startsWith("stall ")) {
				this.pendingStall.set(Duration.ofMillis(Long.parseLong(command.substring(6))));
			}
		}
		this.history.record(HistoryEvent.Type.COMMAND, "-", 0, "stop");
		this.stopping = true;
		this.proceeds.incrementAndGet();
	}

	private void lockUntilStopped() {
		this.history.record(HistoryEvent.Type.STARTED, "-", 0, "");
		while (!this.stopping) {
			String key = this.keys.get(ThreadLocalRandom.current().nextInt(this.keys.size()));
			try {
				if (this.pendingLateWrite.compareAndSet(true, false)) {
					writeLate(key);
				}
				else if (this.pendingSkippedLock.compareAndSet(true, false)) {
					incrementWithoutLock(key);
				}
				else {
					long token = this.lockTemplate.execute(key, this.waitTime, (lock) -> increment(key,
							lock.fencingToken(), lock::isValid, this.pendingStall.getAndSet(null)));
					this.lastToken.set(token);
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
	 * The critical section: read the key's counter, stall if told to, write it back
	 * incremented with the hold's fencing token, and ask whether the lock is held just
	 * before the write and just after it, so that the history holds what the holder
	 * believed at each write.
	 */
	private long increment(String key, long token, BooleanSupplier isValid, Duration stall) {
		this.history.record(HistoryEvent.Type.ACQUIRED, key, token, "");
		long value = this.store.read(key);
		this.history.record(HistoryEvent.Type.READ, key, token, Long.toString(value));
		if (stall != null) {
			this.history.record(HistoryEvent.Type.STALL, key, token, Long.toString(stall.toMillis()));
			stall(stall);
		}
		else {
			pause(Duration.ofMillis(5));
		}
		sample(key, token, isValid);
		boolean accepted = this.store.write(key, token, value + 1);
		this.history.record(HistoryEvent.Type.WRITE, key, token, (value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
		sample(key, token, isValid);
		return token;
	}

	private void sample(String key, long token, BooleanSupplier isValid) {
		this.history.sample(key, token, this.ignoresLoss ? () -> true : isValid);
	}

	/**
	 * The critical section run without the lock, by a caller that believes it holds it
	 * with the token of its last hold.
	 */
	private void incrementWithoutLock(String key) {
		long token = this.lastToken.get();
		increment(key, token, () -> true, SKIPPED_LOCK_STALL);
		this.history.record(HistoryEvent.Type.RELEASED, key, token, "without the lock");
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

	/**
	 * Stalls for a while, or until the test says {@code proceed} or {@code stop}.
	 */
	private void stall(Duration duration) {
		int proceeds = this.proceeds.get();
		long deadline = System.nanoTime() + duration.toNanos();
		while (this.proceeds.get() == proceeds && deadline - System.nanoTime() > 0) {
			pause(Duration.ofMillis(Math.min(20, Math.max(1, (deadline - System.nanoTime()) / 1_000_000))));
		}
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
