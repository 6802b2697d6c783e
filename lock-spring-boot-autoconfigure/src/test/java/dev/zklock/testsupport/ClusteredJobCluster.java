package dev.zklock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.zklock.testsupport.process.JvmProcess;

import static org.awaitility.Awaitility.await;

/**
 * Instances of an application with one clustered job ({@link ClusteredJobWorker}), each
 * in a JVM of its own and on a scheduler clock of its own, writing one history file;
 * killed when closed.
 */
public final class ClusteredJobCluster implements AutoCloseable {

	private static final Duration AWAIT = Duration.ofMinutes(3);

	private final Path history;

	private final Map<String, JvmProcess> instances = new LinkedHashMap<>();

	private final Map<String, Long> stoppedAt = new LinkedHashMap<>();

	private final Duration lockOutlivesStop;

	/**
	 * Starts the instances, one per clock offset, named {@code i0}, {@code i1}...
	 * @param connectString the ZooKeeper servers
	 * @param directory where the history and the instances' logs go
	 * @param period the job's fixed rate
	 * @param runTime how long each run takes
	 * @param clockOffsets how far each instance's scheduler clock is off the machine's
	 * @param lockOutlivesStop how long the lock of a killed or paused instance outlives
	 * it, at most: its session timeout, plus a tick of the server
	 */
	public ClusteredJobCluster(String connectString, Path directory, Duration period, Duration runTime,
			List<Duration> clockOffsets, Duration lockOutlivesStop) {
		this.history = directory.resolve("history");
		this.lockOutlivesStop = lockOutlivesStop;
		for (int i = 0; i < clockOffsets.size(); i++) {
			String instance = "i" + i;
			this.instances.put(instance,
					JvmProcess.start("instance " + instance,
							ClusteredJobWorker.command(connectString, this.history, instance, clockOffsets.get(i),
									period, runTime),
							ProcessBuilder.Redirect.appendTo(directory.resolve(instance + ".log").toFile())));
		}
	}

	/**
	 * The history so far.
	 * @return the history
	 */
	public TickHistory history() {
		return TickHistory.read(this.history, this.stoppedAt, this.lockOutlivesStop);
	}

	/**
	 * Waits until the history has at least so many runs, ended or not.
	 * @param runs the number of runs
	 * @return the history then
	 */
	public TickHistory awaitRuns(int runs) {
		await().atMost(AWAIT).until(() -> history().size() >= runs);
		return history();
	}

	/**
	 * Waits for a run to start and kills its instance with SIGKILL.
	 * @return the instance killed
	 */
	public String killRunningInstance() {
		String instance = awaitRunningInstance();
		this.stoppedAt.put(instance, System.currentTimeMillis());
		this.instances.get(instance).kill();
		return instance;
	}

	/**
	 * Waits for a run to start and pauses its instance with SIGSTOP.
	 * @return the instance paused
	 * @throws Exception if the signal cannot be sent
	 */
	public String pauseRunningInstance() throws Exception {
		String instance = awaitRunningInstance();
		this.stoppedAt.put(instance, System.currentTimeMillis());
		this.instances.get(instance).pause();
		return instance;
	}

	/**
	 * Resumes a paused instance with SIGCONT.
	 * @param instance the instance
	 * @throws Exception if the signal cannot be sent
	 */
	public void resume(String instance) throws Exception {
		this.instances.get(instance).resume();
	}

	private String awaitRunningInstance() {
		List<TickHistory.Run> running = new ArrayList<>();
		await().atMost(AWAIT).until(() -> {
			running.clear();
			running.addAll(history().inProgress());
			return !running.isEmpty();
		});
		return running.get(0).instance();
	}

	@Override
	public void close() {
		this.instances.values().forEach(JvmProcess::close);
	}

}
