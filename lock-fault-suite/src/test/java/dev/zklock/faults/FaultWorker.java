package dev.zklock.faults;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.zklock.LockTemplate;
import dev.zklock.leadership.LeadershipInitiator;
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
 * {@link LockingThreads threads} take the locks of its {@link WorkerKind kind} (or, for a
 * leader worker, whose {@link LeaderTermWriter thread} writes while it leads) and
 * increment counters in the {@link FencedStore} under them, recording every step in the
 * store's history of the run, and every change of its connection to ZooKeeper; it obeys
 * the {@link WorkerCommands commands} the test sends to its standard input.
 * <p>
 * Arguments: the worker's name, the ZooKeeper connect string, the store's address, the
 * number of threads, the worker's {@link WorkerKind kind} and the wait time in
 * milliseconds, then any number of {@code --name=value} properties of the application,
 * which replace the worker's defaults. Besides the starter's,
 * {@code fault-worker.ignores-loss=true} makes a worker that ignores the loss of its
 * locks: it records every validity sample as {@code true} without asking (with
 * {@code distributed-lock.lost-lock.actions=} empty, nothing else tells it either), as an
 * application that never checks would believe.
 */
public final class FaultWorker {

	/**
	 * Session timeout of the workers unless a run sets another, short so that faults
	 * clear within seconds.
	 */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	private FaultWorker() {
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
			.run(properties(args[1], WorkerKind.valueOf(args[4]), Arrays.asList(args).subList(6, args.length)))) {
			CuratorFramework curator = context.getBean(CuratorFramework.class);
			curator.getConnectionStateListenable()
				.addListener((client, state) -> history.record(HistoryEvent.Type.CONNECTION, "-", 0,
						state + " 0x" + Long.toHexString(sessionId(client, state))));
			WorkerCommands commands = new WorkerCommands(history);
			WorkerKind kind = WorkerKind.valueOf(args[4]);
			List<Thread> threads;
			if (kind == WorkerKind.LEADER) {
				LeaderTermWriter writer = new LeaderTermWriter(store, history, commands);
				context.addApplicationListener(writer);
				threads = List.of(writer.start(name));
				context.getBean(LeadershipInitiator.class).start();
			}
			else {
				LockingThreads lockingThreads = new LockingThreads(context.getBean(LockTemplate.class), store, history,
						commands, kind, Duration.ofMillis(Long.parseLong(args[5])),
						context.getEnvironment().getProperty("fault-worker.ignores-loss", Boolean.class, false));
				threads = lockingThreads.start(name, Integer.parseInt(args[3]));
			}
			commands.obey(curator);
			for (Thread thread : threads) {
				thread.join();
			}
		}
		System.exit(0);
	}

	/**
	 * The application's properties: the worker's defaults (a leader worker's election
	 * among them), replaced by those given.
	 */
	private static String[] properties(String connectString, WorkerKind kind, List<String> given) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("distributed-lock.zookeeper.connect-string", connectString);
		properties.put("distributed-lock.zookeeper.session-timeout", SESSION_TIMEOUT.toMillis() + "ms");
		properties.put("distributed-lock.zookeeper.connection-timeout", "3s");
		properties.put("distributed-lock.root-path", "/fault-locks");
		if (kind == WorkerKind.LEADER) {
			// joined once the worker listens to its terms
			properties.put("distributed-lock.leadership.name", LeaderTermWriter.ELECTION);
			properties.put("distributed-lock.leadership.auto-startup", "false");
		}
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

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class WorkerConfiguration {

	}

}
