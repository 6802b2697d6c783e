package dev.zklock.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.zklock.LockAcquisitionException;
import dev.zklock.testsupport.process.PeerRoutes;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fencing tokens of an ensemble whose zxids come from the highest epochs a token holds
 * (below 2^19, see the guide's fencing chapter): tokens keep growing across a leader
 * election into the last epoch, and the next election, into the first epoch that no token
 * holds, makes acquisitions fail with a message that says why, never a token that went
 * down.
 */
class HighEpochTests {

	private static final long EPOCH_LIMIT = 1L << 19;

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void tokensGrowIntoTheLastEpochAndAcquisitionsFailBeyondIt(@TempDir Path directory) throws Exception {
		try (ZooKeeperEnsemble ensemble = FaultServers.configure(directory, 3, PeerRoutes.DIRECT);
				CuratorFramework client = CuratorFrameworkFactory.newClient(ensemble.connectString(), 20_000, 5_000,
						new RetryOneTime(200))) {
			acceptEpoch(ensemble, EPOCH_LIMIT - 3);
			ensemble.start();
			ensemble.awaitServing(WAIT);
			client.start();
			ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks");
			long first = tokenOf(registry);
			assertThat(epochOf(first)).isEqualTo(EPOCH_LIMIT - 2);
			electNewLeader(ensemble);
			long last = tokenOf(registry);
			assertThat(epochOf(last)).isEqualTo(EPOCH_LIMIT - 1);
			assertThat(last).isGreaterThan(first);
			electNewLeader(ensemble);
			LockAcquisitionException beyond = await().atMost(WAIT)
				.until(() -> failureOf(registry),
						(failure) -> failure != null && failure.getMessage().contains("epoch " + EPOCH_LIMIT));
			assertThat(beyond).hasMessageContaining("fencing tokens hold zxids of epochs below " + EPOCH_LIMIT);
			registry.close();
		}
	}

	private static long tokenOf(ZooKeeperLockRegistry registry) {
		AcquiredLock lock = registry.acquire("epoch", WAIT);
		lock.release();
		return lock.fencingToken();
	}

	private static LockAcquisitionException failureOf(ZooKeeperLockRegistry registry) {
		try {
			tokenOf(registry);
			return null;
		}
		catch (LockAcquisitionException ex) {
			return ex;
		}
	}

	/**
	 * The epoch of the zxid in a token: the token is the zxid shifted left by 12 bits,
	 * and the epoch is the zxid's upper 32 bits.
	 */
	private static long epochOf(long token) {
		return token >>> (12 + 32);
	}

	/**
	 * Makes the servers, before their first start, believe they already went through
	 * leader elections up to the given epoch: the first leader then numbers its
	 * transactions (zxids) in the next epoch.
	 */
	private static void acceptEpoch(ZooKeeperEnsemble ensemble, long epoch) throws IOException {
		for (ZooKeeperServerProcess server : ensemble.servers()) {
			Path snapshots = Files.createDirectories(server.dataDirectory().resolve("version-2"));
			Files.writeString(snapshots.resolve("acceptedEpoch"), Long.toString(epoch));
			Files.writeString(snapshots.resolve("currentEpoch"), Long.toString(epoch));
		}
	}

	/**
	 * Kills the leader, waits for the other two to elect a new one, and starts the killed
	 * server again.
	 */
	private static void electNewLeader(ZooKeeperEnsemble ensemble) throws Exception {
		ZooKeeperServerProcess leader = ensemble.leader();
		leader.kill();
		ensemble.awaitServing(WAIT);
		leader.start();
		ensemble.awaitServing(WAIT);
	}

}
