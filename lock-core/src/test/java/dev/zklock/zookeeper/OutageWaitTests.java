package dev.zklock.zookeeper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Waits that ride out an outage of ZooKeeper: a server in its own JVM stops and starts
 * again on the same port and data, under waiters queued behind holders of other sessions,
 * and each wait ends with the lock, or at its deadline (plus {@link LockRoot#GRACE}) with
 * a message that tells of the outage; never with a stack trace of Curator or ZooKeeper in
 * the log.
 */
@Tag("outage")
class OutageWaitTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final Duration LONG_WAIT = Duration.ofSeconds(60);

	/**
	 * Long enough for a session to outlive a short outage: Curator ends a session that
	 * stays suspended this long.
	 */
	private static final int LASTING_SESSION_MILLIS = 10_000;

	private static final int SHORT_SESSION_MILLIS = 4_000;

	private static final int CONNECTION_TIMEOUT_MILLIS = 2_000;

	private static final List<String> CHECKED_LOGGERS = List.of("org.apache.curator", "org.apache.zookeeper",
			"dev.zklock");

	@TempDir
	static Path directory;

	private static ZooKeeperEnsemble zookeeper;

	private final List<CuratorFramework> clients = new ArrayList<>();

	private final List<ZooKeeperLockRegistry> registries = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final ListAppender<ILoggingEvent> logEvents = new ListAppender<>();

	@BeforeAll
	static void startServer() throws Exception {
		zookeeper = ZooKeeperEnsemble.startServing(directory, 1,
				new ServerSettings(List.of("-Xmx128m"), List.of("tickTime=500")), AWAIT);
	}

	@AfterAll
	static void killServer() {
		zookeeper.close();
	}

	@BeforeEach
	void captureLogAndServe() throws Exception {
		this.logEvents.start();
		CHECKED_LOGGERS.forEach((name) -> logger(name).addAppender(this.logEvents));
		zookeeper.start();
		zookeeper.awaitServing(AWAIT);
	}

	@AfterEach
	void close() {
		this.threads.shutdownNow();
		this.registries.forEach(ZooKeeperLockRegistry::close);
		this.clients.forEach(CuratorFramework::close);
		CHECKED_LOGGERS.forEach((name) -> logger(name).detachAppender(this.logEvents));
	}

	@ParameterizedTest(name = "{1} behind {0}")
	@CsvSource({ "EXCLUSIVE, EXCLUSIVE", "READ, WRITE", "SEMAPHORE, SEMAPHORE" })
	void waiterRidesOutAnOutageThatItsSessionOutlives(LockType held, LockType waited) throws Exception {
		ZooKeeperLockRegistry holder = registry(client(LASTING_SESSION_MILLIS));
		CuratorFramework waiterClient = client(LASTING_SESSION_MILLIS);
		ZooKeeperLockRegistry waiter = registry(waiterClient);
		String key = "outlived-" + waited;
		AcquiredLock holding = holder.acquireDetached(key, held, 1, LONG_WAIT);
		Future<AcquiredLock> waiting = this.threads.submit(() -> waiter.acquireDetached(key, waited, 1, LONG_WAIT));
		await().atMost(AWAIT).until(() -> holder.queueOf(key).size() == 2);
		long queuedToken = holder.queueOf(key).get(1).fencingToken();
		long sessionBefore = waiterClient.getZookeeperClient().getZooKeeper().getSessionId();
		outage(List.of(waiterClient), ConnectionState.SUSPENDED, Duration.ofSeconds(3));
		holding.release();
		AcquiredLock taken = waiting.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(taken.isValid()).isTrue();
		assertThat(taken.fencingToken()).isGreaterThan(holding.fencingToken());
		if (waiterClient.getZookeeperClient().getZooKeeper().getSessionId() == sessionBefore) {
			assertThat(waiter.queueOf(key)).as("the node queued before the outage").singleElement();
			assertThat(taken.fencingToken()).as("the token of the node queued before the outage")
				.isEqualTo(queuedToken);
		}
		taken.release();
		await().atMost(AWAIT).until(() -> holder.queueOf(key).isEmpty());
		assertNoStackTraceLogged();
	}

	@Test
	void waiterWhoseSessionEndsDuringAnOutageQueuesAgainAndTakesTheLock() throws Exception {
		CuratorFramework holderClient = client(SHORT_SESSION_MILLIS);
		ZooKeeperLockRegistry holder = registry(holderClient);
		CuratorFramework waiterClient = client(SHORT_SESSION_MILLIS);
		ZooKeeperLockRegistry waiter = registry(waiterClient);
		AcquiredLock holding = holder.acquireDetached("expired", LockType.EXCLUSIVE, 1, LONG_WAIT);
		Future<AcquiredLock> waiting = this.threads
			.submit(() -> waiter.acquireDetached("expired", LockType.EXCLUSIVE, 1, LONG_WAIT));
		await().atMost(AWAIT).until(() -> holder.queueOf("expired").size() == 2);
		outage(List.of(holderClient, waiterClient), ConnectionState.LOST, Duration.ZERO);
		AcquiredLock taken = waiting.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(taken.isValid()).isTrue();
		assertThat(taken.fencingToken()).isGreaterThan(holding.fencingToken());
		String session = Long.toHexString(waiterClient.getZookeeperClient().getZooKeeper().getSessionId());
		assertThat(waiter.queueOf("expired")).as("the waiter's node of its new session, and no other")
			.singleElement()
			.satisfies((node) -> assertThat(node.sessionId()).contains(session));
		taken.release();
		await().atMost(AWAIT).until(() -> waiter.queueOf("expired").isEmpty());
		assertNoStackTraceLogged();
	}

	@Test
	void acquisitionStartedDuringAnOutageTakesTheLockOnceZooKeeperIsBack() throws Exception {
		CuratorFramework client = client(LASTING_SESSION_MILLIS);
		ZooKeeperLockRegistry registry = registry(client);
		CountDownLatch suspended = stateReached(client, ConnectionState.SUSPENDED);
		zookeeper.stop();
		assertThat(suspended.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		Future<AcquiredLock> acquiring = this.threads
			.submit(() -> registry.acquireDetached("fresh", LockType.EXCLUSIVE, 1, LONG_WAIT));
		await().atMost(AWAIT).until(() -> !registry.waitingLocks().isEmpty());
		zookeeper.start();
		zookeeper.awaitServing(AWAIT);
		AcquiredLock taken = acquiring.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(taken.isValid()).isTrue();
		taken.release();
		// a slow restart (a busy machine) can outlast the client's one retry of a request
		// sent when the connection first came back: Curator logs that it gave up, as the
		// guide says; zklock logs nothing with a stack trace
		assertNoStackTraceLoggedBesidesCuratorGivingUp();
	}

	@Test
	void holderThatReleasesDuringAnOutageDeletesItsNodeOnceZooKeeperIsBack() throws Exception {
		CuratorFramework holderClient = client(LASTING_SESSION_MILLIS);
		ZooKeeperLockRegistry holder = registry(holderClient);
		ZooKeeperLockRegistry other = registry(client(LASTING_SESSION_MILLIS));
		AcquiredLock holding = holder.acquireDetached("released-in-outage", LockType.EXCLUSIVE, 1, LONG_WAIT);
		long session = holderClient.getZookeeperClient().getZooKeeper().getSessionId();
		CountDownLatch suspended = stateReached(holderClient, ConnectionState.SUSPENDED);
		CountDownLatch reconnected = stateReached(holderClient, ConnectionState.RECONNECTED);
		zookeeper.stop();
		assertThat(suspended.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		holding.release();
		// the length of the outage, part of the scenario: longer than the connection
		// timeout, after which Curator gives up a request sent into the outage
		Thread.sleep(CONNECTION_TIMEOUT_MILLIS + 1000);
		zookeeper.start();
		zookeeper.awaitServing(AWAIT);
		assertThat(reconnected.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(holderClient.getZookeeperClient().getZooKeeper().getSessionId())
			.as("the session outlived the outage")
			.isEqualTo(session);
		AcquiredLock taken = other.acquireDetached("released-in-outage", LockType.EXCLUSIVE, 1, LONG_WAIT);
		assertThat(taken.fencingToken()).isGreaterThan(holding.fencingToken());
		taken.release();
		assertNoStackTraceLogged();
	}

	@Test
	void waiterFailsAtItsDeadlineTellingHowLongZooKeeperCouldNotBeReached() throws Exception {
		ZooKeeperLockRegistry holder = registry(client(LASTING_SESSION_MILLIS));
		CuratorFramework waiterClient = client(LASTING_SESSION_MILLIS);
		ZooKeeperLockRegistry waiter = registry(waiterClient);
		Duration waitTime = Duration.ofSeconds(5);
		holder.acquireDetached("unreachable", LockType.EXCLUSIVE, 1, LONG_WAIT);
		Future<Duration> waiting = this.threads.submit(() -> {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> waiter.acquireDetached("unreachable", LockType.EXCLUSIVE, 1, waitTime))
				.withMessageStartingWith("Could not acquire lock 'unreachable' within 5000ms: ZooKeeper ("
						+ zookeeper.connectString() + ") could not be reached for ")
				.withMessageEndingWith(" s of it")
				.satisfies((ex) -> assertThat(Double
					.parseDouble(ex.getMessage().replaceFirst(".* could not be reached for ([0-9.]+) s of it$", "$1")))
					.as("the seconds without ZooKeeper")
					.isPositive()
					.isLessThanOrEqualTo(waitTime.plus(LockRoot.GRACE).toMillis() / 1000.0));
			return Duration.ofNanos(System.nanoTime() - start);
		});
		await().atMost(AWAIT).until(() -> holder.queueOf("unreachable").size() == 2);
		CountDownLatch suspended = stateReached(waiterClient, ConnectionState.SUSPENDED);
		zookeeper.stop();
		assertThat(suspended.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(waiting.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isBetween(waitTime,
				waitTime.plus(LockRoot.GRACE));
		assertThat(waiter.keysInUse()).isZero();
		assertNoStackTraceLogged();
	}

	@Test
	void zeroWaitOfAClientJustStartedWaitsForItsFirstConnection() throws Exception {
		for (int attempt = 0; attempt < 5; attempt++) {
			CuratorFramework client = startedClient(LASTING_SESSION_MILLIS);
			ZooKeeperLockRegistry registry = registry(client);
			registry.acquire("just-started", Duration.ZERO).release();
			ZooKeeperLock view = registry(startedClient(LASTING_SESSION_MILLIS)).obtain("just-started-view");
			assertThat(view.tryLock()).isTrue();
			view.unlock();
		}
	}

	@Test
	void zeroWaitOfAClientThatLostZooKeeperFailsWithoutWaitingForTheConnection() throws Exception {
		CuratorFramework client = client(LASTING_SESSION_MILLIS);
		ZooKeeperLockRegistry registry = registry(client);
		CountDownLatch suspended = stateReached(client, ConnectionState.SUSPENDED);
		zookeeper.stop();
		assertThat(suspended.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> registry.acquire("down", Duration.ZERO))
			.withMessage("Could not acquire lock 'down' within 0ms: no connection to ZooKeeper ("
					+ zookeeper.connectString() + ")");
		assertThat(Duration.ofNanos(System.nanoTime() - start))
			.isLessThan(Duration.ofMillis(CONNECTION_TIMEOUT_MILLIS));
	}

	@Test
	void guardedRootWhoseCheckIsNotAnsweredFailsTheAcquisitionAfterItsDeadline() throws Exception {
		try (ReplyHoldingProxy proxy = ReplyHoldingProxy.start(zookeeper.connectString())) {
			ZooKeeperLockRegistry registry = registry(proxy.newClient());
			registry.guardRoot();
			proxy.holdReplies();
			Duration waitTime = Duration.ofSeconds(2);
			long start = System.nanoTime();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> registry.acquire("guarded", waitTime))
				.withMessageStartingWith("Could not acquire lock 'guarded' within 2000ms: ZooKeeper (")
				.withMessageContaining("did not answer in time");
			// the grace, and the scheduling delay of a busy machine
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(waitTime)
				.isLessThan(waitTime.plus(LockRoot.GRACE).plusSeconds(1));
			proxy.releaseReplies();
		}
	}

	/**
	 * Stops the server until each client reached a state, and a while longer, then starts
	 * it again and waits until it serves.
	 */
	private void outage(List<CuratorFramework> watched, ConnectionState until, Duration longer) throws Exception {
		List<CountDownLatch> reached = watched.stream().map((client) -> stateReached(client, until)).toList();
		zookeeper.stop();
		for (CountDownLatch latch : reached) {
			assertThat(latch.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).as("connection " + until).isTrue();
		}
		// the length of the outage, part of the scenario: no assertion follows it
		Thread.sleep(longer.toMillis());
		zookeeper.start();
		zookeeper.awaitServing(AWAIT);
	}

	private static CountDownLatch stateReached(CuratorFramework client, ConnectionState state) {
		CountDownLatch reached = new CountDownLatch(1);
		client.getConnectionStateListenable().addListener((curator, newState) -> {
			if (newState == state) {
				reached.countDown();
			}
		});
		return reached;
	}

	private void assertNoStackTraceLogged() {
		assertThat(errorsWithStackTrace()).as("errors with a stack trace in the log")
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEmpty();
	}

	/**
	 * No error with a stack trace, but for the lines that Curator logs when its retry
	 * policy gives up a request (failure-semantics: "Background operation retry gave
	 * up"), which the length of an outage decides.
	 */
	private void assertNoStackTraceLoggedBesidesCuratorGivingUp() {
		assertThat(errorsWithStackTrace()).as("errors with a stack trace in the log")
			.filteredOn((event) -> !(event.getLoggerName().startsWith("org.apache.curator.framework")
					&& event.getFormattedMessage().contains("retry gave up")))
			.extracting(ILoggingEvent::getFormattedMessage)
			.isEmpty();
	}

	private List<ILoggingEvent> errorsWithStackTrace() {
		return this.logEvents.list.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR) && event.getThrowableProxy() != null)
			.toList();
	}

	private CuratorFramework client(int sessionTimeoutMillis) throws InterruptedException {
		CuratorFramework client = startedClient(sessionTimeoutMillis);
		assertThat(client.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	/**
	 * A client started, but not yet connected; it gives up a request after one retry, as
	 * a client with a short retry policy does.
	 */
	private CuratorFramework startedClient(int sessionTimeoutMillis) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(zookeeper.connectString())
			.sessionTimeoutMs(sessionTimeoutMillis)
			.connectionTimeoutMs(CONNECTION_TIMEOUT_MILLIS)
			.retryPolicy(new RetryOneTime(100))
			.build();
		this.clients.add(client);
		client.start();
		return client;
	}

	private ZooKeeperLockRegistry registry(CuratorFramework client) {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks");
		this.registries.add(registry);
		return registry;
	}

	private static Logger logger(String name) {
		return (Logger) LoggerFactory.getLogger(name);
	}

}
