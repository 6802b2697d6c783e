package dev.zklock.integration.leader;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * A separate JVM that runs for leadership, for {@link LeaderElectionProcessTests}: a
 * Spring Boot application, auto-configured as an application with this module is, whose
 * {@link LockRegistryLeaderInitiator} elects through the auto-configured lock registry.
 * Arguments: the connect string, the session timeout and the role. It prints
 * {@code STARTED} once its context runs, then the {@link ReportingCandidate}'s lines, and
 * closes on a line {@code stop} or the end of its standard input.
 */
public final class CandidateWorker {

	private CandidateWorker() {
	}

	public static void main(String[] args) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(CandidateConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--distributed-lock.zookeeper.connect-string=" + args[0],
					"--distributed-lock.zookeeper.session-timeout=" + args[1], "--candidate.role=" + args[2])) {
			System.out.println("STARTED");
			BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String line = input.readLine();
			while (line != null && !"stop".equals(line)) {
				line = input.readLine();
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class CandidateConfiguration {

		@Bean
		LockRegistryLeaderInitiator leaderInitiator(ZooKeeperIntegrationLockRegistry lockRegistry,
				Environment environment) {
			return new LockRegistryLeaderInitiator(lockRegistry, new ReportingCandidate(lockRegistry,
					environment.getRequiredProperty("candidate.role"), System.out::println));
		}

	}

}
