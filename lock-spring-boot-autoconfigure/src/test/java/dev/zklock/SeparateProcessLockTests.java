package dev.zklock;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The other contender is a separate JVM running the starter in its own Spring context.
 */
class SeparateProcessLockTests {

	private static final String QUIET = "-Dlogging.level.root=WARN";

	/**
	 * How long a process may take to exit after {@code SIGTERM} while ZooKeeper is
	 * frozen: generous for a busy machine, and far less than the wait for a frozen
	 * server's answer that held shutdown up before (two thirds of the session timeout).
	 */
	private static final Duration FROZEN_SHUTDOWN = Duration.ofSeconds(15);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private LockTemplate template;

	private final List<Process> processes = new ArrayList<>();

	@BeforeEach
	void connect() throws Exception {
		this.template = new LockTemplate(new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"),
				Duration.ofSeconds(60));
	}

	@AfterEach
	void killProcesses() {
		this.processes.forEach(Process::destroyForcibly);
	}

	@Test
	void lockHeldByAnotherProcessTimesOutHereUntilThatProcessReleasesIt() throws Exception {
		Process holder = start("hold", "shared-key");
		BufferedReader output = outputOf(holder);
		long holderToken = heldToken(output);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.template.execute("shared-key", Duration.ofMillis(500), (lock) -> "never"));
		try (Writer input = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8)) {
			input.write("release\n");
		}
		awaitLine(output, "DONE");
		long token = this.template.execute("shared-key", Duration.ofSeconds(10), LockHandle::fencingToken);
		assertThat(token).isGreaterThan(holderToken);
		assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(holder.exitValue()).isZero();
	}

	@Test
	void lockOfAKilledProcessPassesOnWhenItsSessionExpires() throws Exception {
		Process holder = start("hold", "orphaned-key");
		long holderToken = heldToken(outputOf(holder));
		holder.destroyForcibly().waitFor();
		long token = this.template.execute("orphaned-key", Duration.ofSeconds(20), LockHandle::fencingToken);
		assertThat(token).isGreaterThan(holderToken);
	}

	@Test
	void lockOfAProcessThatShutsDownInOrderPassesOnAtOnceNotAtItsSessionTimeout() throws Exception {
		Process holder = start(List.of(QUIET, "-Dholder.session-timeout=10s"), "hold", "shut-down-key");
		long holderToken = heldToken(outputOf(holder));
		holder.destroy();
		long token = this.template.execute("shut-down-key", Duration.ofSeconds(5), LockHandle::fencingToken);
		assertThat(token).isGreaterThan(holderToken);
		assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aProcessThatShutsDownWhileZooKeeperIsFrozenExitsPromptly(@TempDir Path directory) throws Exception {
		ServerSettings longSessions = new ServerSettings(List.of("-Xmx128m"), List.of("maxSessionTimeout=120000"));
		try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.startServing(directory, 1, longSessions,
				Duration.ofSeconds(30))) {
			Process holder = start(ensemble.connectString(), List.of(QUIET, "-Dholder.session-timeout=90s"), "hold",
					"frozen-key");
			heldToken(outputOf(holder));
			ZooKeeperServerProcess server = ensemble.servers().get(0);
			server.pause();
			try {
				holder.destroy();
				assertThat(holder.waitFor(FROZEN_SHUTDOWN.toSeconds(), TimeUnit.SECONDS))
					.as("exited within %s of SIGTERM", FROZEN_SHUTDOWN)
					.isTrue();
			}
			finally {
				server.resume();
			}
		}
	}

	@Test
	void anApplicationStartedBeforeZooKeeperLogsTheOutageInOneLineAndItsEndInAnother() throws Exception {
		String connectString = this.zookeeper.connectString();
		this.zookeeper.stop();
		Process holder = start(List.of("-Dlogging.config=classpath:default-application-logback.xml",
				"-Ddistributed-lock.zookeeper.connection-timeout=1s"), "hold", "outage-key");
		BufferedReader output = outputOf(holder);
		List<String> log = new ArrayList<>(linesUntil(output, "No connection to ZooKeeper"));
		this.zookeeper.restart();
		log.addAll(linesUntil(output, "HELD "));
		assertThat(log).filteredOn((line) -> line.contains("ZooKeeper (" + connectString + ")"))
			.hasSize(2)
			.satisfiesExactly(
					(line) -> assertThat(line).contains("WARN")
						.contains("No connection to ZooKeeper (" + connectString + ") within 1000ms"),
					(line) -> assertThat(line).contains("INFO")
						.contains("Connected to ZooKeeper (" + connectString + "); locking works"));
		assertThat(log).as("ZooKeeper's reconnection attempts and stack traces")
			.noneMatch((line) -> line.contains("org.apache.zookeeper.ClientCnxn ") || line.startsWith("\tat "));
		try (Writer input = new OutputStreamWriter(holder.getOutputStream(), StandardCharsets.UTF_8)) {
			input.write("release\n");
		}
		awaitLine(output, "DONE");
	}

	@Test
	void threadsHereAndAnotherProcessLoseNoUpdate(@TempDir Path directory) throws Exception {
		CounterFile counter = new CounterFile(directory.resolve("counter"));
		Process other = start("increment", counter.path().toString(), "40");
		BufferedReader otherOutput = outputOf(other);
		awaitLine(otherOutput, "STARTED");
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int thread = 0; thread < 4; thread++) {
				work.add(executor.submit(() -> {
					for (int i = 0; i < 10; i++) {
						this.template.execute("counter-file", (lock) -> {
							counter.increment();
							return null;
						});
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		awaitLine(otherOutput, "DONE");
		assertThat(counter.value()).isEqualTo(80);
	}

	private Process start(String... arguments) throws IOException {
		return start(List.of(QUIET), arguments);
	}

	private Process start(List<String> jvmOptions, String... arguments) throws IOException {
		return start(this.zookeeper.connectString(), jvmOptions, arguments);
	}

	private Process start(String connectString, List<String> jvmOptions, String... arguments) throws IOException {
		Process process = JavaCommand.mainClass(LockHolderProcess.class.getName())
			.jvmOptions(jvmOptions)
			.arguments(connectString)
			.arguments(arguments)
			.toProcessBuilder()
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.redirectInput(ProcessBuilder.Redirect.PIPE)
			.start();
		this.processes.add(process);
		return process;
	}

	private static BufferedReader outputOf(Process process) {
		return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
	}

	private static long heldToken(BufferedReader output) throws IOException {
		return Long.parseLong(awaitLine(output, "HELD ").substring(5));
	}

	private static List<String> linesUntil(BufferedReader output, String text) throws IOException {
		List<String> lines = new ArrayList<>();
		String line;
		while ((line = output.readLine()) != null) {
			lines.add(line);
			if (line.contains(text)) {
				return lines;
			}
		}
		throw new IllegalStateException("The other process ended before printing '" + text + "': " + lines);
	}

	private static String awaitLine(BufferedReader output, String prefix) throws IOException {
		String line;
		while ((line = output.readLine()) != null) {
			if (line.startsWith(prefix)) {
				return line;
			}
		}
		throw new IllegalStateException("The other process ended before printing '" + prefix + "'");
	}

}
