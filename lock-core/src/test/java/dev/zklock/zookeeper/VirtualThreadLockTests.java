package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockTemplate;
import dev.zklock.testsupport.ZooKeeperTestServer;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand virtual threads contending for ten keys finish, without deadlock and without
 * pinning their carrier threads. Runs on Java 21 and later; CI runs it on Java 25.
 */
@EnabledForJreRange(min = JRE.JAVA_21,
		disabledReason = "virtual threads need Java 21 or later; CI runs this test on Java 25")
class VirtualThreadLockTests {

	private static final int THREADS = 1_000;

	private static final int KEYS = 10;

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void thousandVirtualThreadsOnTenKeysFinishWithoutPinning() throws Exception {
		LockTemplate template = new LockTemplate(new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"),
				Duration.ofSeconds(120));
		AtomicInteger pinned = new AtomicInteger();
		int[] counters = new int[KEYS];
		try (RecordingStream pinning = new RecordingStream()) {
			pinning.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(20));
			pinning.onEvent("jdk.VirtualThreadPinned", (event) -> pinned.incrementAndGet());
			pinning.startAsync();
			List<Future<?>> work = new ArrayList<>();
			ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
			try {
				for (int i = 0; i < THREADS; i++) {
					int key = i % KEYS;
					work.add(virtualThreads.submit(() -> template.execute("virtual:" + key, (lock) -> {
						counters[key]++;
						return null;
					})));
				}
				for (Future<?> future : work) {
					future.get(180, TimeUnit.SECONDS);
				}
			}
			finally {
				virtualThreads.shutdownNow();
			}
			stopOnceEveryEventIsHandled(pinning);
		}
		for (int counter : counters) {
			assertThat(counter).isEqualTo(THREADS / KEYS);
		}
		assertThat(pinned).hasValue(0);
	}

	/**
	 * {@code RecordingStream.stop()}, which returns once the stream has handled every
	 * event recorded before, and which the Java 17 release this code compiles against
	 * does not have.
	 */
	private static void stopOnceEveryEventIsHandled(RecordingStream stream) throws Exception {
		RecordingStream.class.getMethod("stop").invoke(stream);
	}

	/**
	 * {@code Executors.newVirtualThreadPerTaskExecutor()}, which the Java 17 release this
	 * code compiles against does not have.
	 */
	private static ExecutorService newVirtualThreadPerTaskExecutor() throws Exception {
		return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
	}

}
