package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import dev.zklock.testsupport.process.OutputLines;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A process that stops running for half its session timeout may have lost its session
 * without its client knowing yet. Real pauses are made here by stopping a holder's JVM
 * ({@code SIGSTOP}) and letting it run again; a task that holds up a thread of the
 * registry while the rest of the process runs is no pause.
 */
class PauseDetectionTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final int LONG_SESSION_TIMEOUT_MILLIS = 10_000;

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

	private final List<PausedHolder> holders = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		this.scheduler.shutdownNow();
		this.holders.forEach(PausedHolder::close);
	}

	@Test
	void taskThatHoldsUpTheRegistrySchedulerIsNoPause() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		try (LockLossDetector detector = new LockLossDetector(client, LostLockPolicy.defaults(), this.scheduler)) {
			LockNode node = new LockNode("/locks/busy/lock-0000000000", LockNodeKind.EXCLUSIVE, 1,
					client.getZookeeperClient().getZooKeeper().getSessionId());
			LockKey.Hold hold = new LockKey.Hold(new LockKey("busy", HandOffPolicy.disabled()), node, 0,
					Thread.currentThread());
			detector.register(hold);
			this.scheduler.submit(() -> sleep(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4)).get();
			assertThat(detector.isHeld(hold)).isTrue();
			assertThat(detector.pauses()).isZero();
			assertThat(hold.lossReason()).isNull();
		}
	}

	@Test
	void pauseOfHalfTheSessionTimeoutLosesTheLockUnderTheSuspendedTrigger() throws Exception {
		PausedHolder holder = start(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS, LostLockPolicy.Trigger.SUSPENDED);
		holder.pauseFor(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4);
		// Asking for the count measures nothing: the pause watcher found the pause itself
		await().atMost(AWAIT).until(() -> holder.ask("pauses"), "pauses 1"::equals);
		assertThat(holder.ask("held")).isEqualTo("held false");
	}

	@Test
	void shortPauseChangesNothing() throws Exception {
		PausedHolder holder = start(LONG_SESSION_TIMEOUT_MILLIS, LostLockPolicy.Trigger.SUSPENDED);
		holder.pauseFor(LONG_SESSION_TIMEOUT_MILLIS / 10);
		assertThat(holder.ask("held")).isEqualTo("held true");
		assertThat(holder.ask("pauses")).isEqualTo("pauses 0");
	}

	@Test
	void underTheLostTriggerAPauseThatTheSessionSurvivesKeepsTheLock() throws Exception {
		PausedHolder holder = start(LONG_SESSION_TIMEOUT_MILLIS, LostLockPolicy.Trigger.LOST);
		holder.pauseFor(LONG_SESSION_TIMEOUT_MILLIS * 6 / 10);
		await().atMost(AWAIT).until(() -> holder.ask("pauses"), "pauses 1"::equals);
		await().atMost(AWAIT).until(() -> holder.ask("held"), "held true"::equals);
	}

	@Test
	void closingTheRegistryStopsItsThreads() throws Exception {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		registry.acquire("threads", Duration.ofSeconds(5)).release();
		Set<Thread> started = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.getName().startsWith("zklock-"))
			.collect(Collectors.toSet());
		assertThat(started).extracting(Thread::getName)
			.anyMatch((name) -> name.startsWith("zklock-pause-watcher-"))
			.anyMatch((name) -> name.equals("zklock-registry"));
		registry.close();
		await().atMost(AWAIT).until(() -> started.stream().noneMatch(Thread::isAlive));
	}

	private PausedHolder start(int sessionTimeoutMillis, LostLockPolicy.Trigger trigger) {
		PausedHolder holder = new PausedHolder(this.zookeeper.connectString(), sessionTimeoutMillis, trigger);
		this.holders.add(holder);
		holder.awaitReady();
		return holder;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A {@link PausedHolderWorker} in a JVM of its own, seen from the test: it can be
	 * paused and asked what its detector saw.
	 */
	private static final class PausedHolder implements AutoCloseable {

		private final List<String> lines = new CopyOnWriteArrayList<>();

		private final JvmProcess process;

		PausedHolder(String connectString, int sessionTimeoutMillis, LostLockPolicy.Trigger trigger) {
			this.process = JvmProcess.start("paused holder",
					JavaCommand.mainClass(PausedHolderWorker.class.getName())
						.jvmOptions("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData")
						.arguments(connectString, Integer.toString(sessionTimeoutMillis), trigger.name()),
					new OutputLines() {

						@Override
						public void line(String line) {
							PausedHolder.this.lines.add(line);
						}

						@Override
						public void ended() {
							PausedHolder.this.lines.add("(output ended)");
						}

					});
		}

		void awaitReady() {
			await().atMost(AWAIT)
				.alias(this.process + " printing ready (printed " + this.lines + ")")
				.until(() -> this.lines.contains("ready"));
		}

		/**
		 * Stops the whole JVM for a while, then lets it run again.
		 */
		void pauseFor(long millis) throws Exception {
			this.process.pause();
			try {
				Thread.sleep(millis);
			}
			finally {
				this.process.resume();
			}
		}

		/**
		 * Sends a command and waits for its answer, the first line after it that starts
		 * with the command's word.
		 */
		String ask(String command) {
			int asked = this.lines.size();
			this.process.send(command);
			return await().atMost(AWAIT)
				.alias(this.process + " answering " + command + " (printed " + this.lines + ")")
				.until(() -> this.lines.subList(asked, this.lines.size())
					.stream()
					.filter((line) -> line.startsWith(command + " "))
					.findFirst()
					.orElse(null), (line) -> line != null);
		}

		@Override
		public void close() {
			this.process.close();
		}

	}

}
