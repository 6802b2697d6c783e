package dev.zklock.scheduling;

import java.nio.charset.StandardCharsets;

import dev.zklock.ClusteredJob;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A client without the credentials (a stranger) tries to take the root of an
 * authenticated application's job records over, against a real ZooKeeper server: before
 * start-up, before the first record is written, and when start-up did not check it.
 */
class JobRecordsRootSquattingTests {

	private static final String PASSWORD = "jobs-secret-7d21";

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	private static CuratorFramework stranger;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(server)
		.withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
		.withUserConfiguration(YearlyJob.class)
		.withPropertyValues("distributed-lock.zookeeper.authentication.username=jobs",
				"distributed-lock.zookeeper.authentication.password=" + PASSWORD);

	@BeforeAll
	static void connectStranger() throws Exception {
		stranger = server.newClient();
	}

	@Test
	void rootThatAStrangerCreatedBeforeStartUpFailsStartUpNamingItsAcl() throws Exception {
		stranger.create().forPath("/jobs-squat", new byte[0]);
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=/jobs-squat")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("The root of the job records /jobs-squat has the ACL [world:anyone:cdrwa]")
				.hasMessageContaining("not the ACL [digest:jobs:")
				.hasMessageContaining("distributed-lock.scheduling.root-path"));
	}

	@Test
	void rootThatAStrangerWithCredentialsOfItsOwnCreatedFailsStartUp() throws Exception {
		try (CuratorFramework intruder = CuratorFrameworkFactory.builder()
			.connectString(server.connectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", "intruder:other-secret".getBytes(StandardCharsets.UTF_8))
			.build()) {
			intruder.start();
			intruder.create().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath("/jobs-locked", new byte[0]);
		}
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=/jobs-locked")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("The root of the job records /jobs-locked has an ACL that this client may not "
						+ "even read, which does not let this client create nodes in it"));
	}

	@Test
	void strangerCanNeitherRemoveNorReplaceTheRootNorWriteARecordBeforeTheFirstRun() throws Exception {
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=/secure-jobs").run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework application = context.getBean(CuratorFramework.class);
			assertThat(application.getChildren().forPath("/secure-jobs")).as("the root before any run")
				.containsExactly("~guard");
			assertThatExceptionOfType(KeeperException.NotEmptyException.class)
				.isThrownBy(() -> stranger.delete().forPath("/secure-jobs"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.delete().forPath("/secure-jobs/~guard"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.create().forPath("/secure-jobs/yearly-report", new byte[0]));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/secure-jobs"));
			assertThat(context.getBean(JobRecords.class).read("yearly-report")).isNull();
		});
	}

	@Test
	void rootThatAStrangerCreatedIsRefusedAtTheFirstReadWhenStartUpDidNotCheckIt() throws Exception {
		stranger.create().forPath("/jobs-squat-later", new byte[0]);
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=/secure-jobs-too")
			.run((context) -> {
				JobRecords records = new JobRecords(context.getBean(CuratorFramework.class), "/jobs-squat-later");
				records.guardRoot();
				assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> records.read("yearly-report"))
					.withMessageContaining(
							"The root of the job records /jobs-squat-later has the ACL [world:anyone:cdrwa]");
			});
	}

	@EnableScheduling
	static class YearlyJob {

		@Scheduled(cron = "0 0 0 1 1 *")
		@ClusteredJob(name = "yearly-report")
		void report() {
		}

	}

}
