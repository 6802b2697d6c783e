package dev.zklock;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A separate JVM that uses the starter, for {@link SeparateProcessLockTests}. Arguments:
 * the connect string, then {@code hold KEY} (hold the lock until a line {@code release}
 * arrives on standard input) or {@code increment FILE COUNT} (increment a counter file
 * under the lock). The system property {@code holder.session-timeout} sets its session
 * timeout (2 s by default).
 */
public final class LockHolderProcess {

	private LockHolderProcess() {
	}

	public static void main(String[] args) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HolderConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--distributed-lock.zookeeper.connect-string=" + args[0],
					"--distributed-lock.zookeeper.session-timeout="
							+ System.getProperty("holder.session-timeout", "2s"),
					"--distributed-lock.wait-time=60s")) {
			Holder holder = context.getBean(Holder.class);
			System.out.println("STARTED");
			switch (args[1]) {
				case "hold" -> holder.hold(args[2]);
				case "increment" -> {
					CounterFile counter = new CounterFile(Path.of(args[2]));
					for (int i = 0; i < Integer.parseInt(args[3]); i++) {
						holder.increment(counter);
					}
				}
				default -> throw new IllegalArgumentException(args[1]);
			}
			System.out.println("DONE");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class HolderConfiguration {

		@Bean
		Holder holder() {
			return new Holder();
		}

	}

	static class Holder {

		@DistributedLock(key = "#key")
		void hold(String key) throws Exception {
			System.out.println("HELD " + LockHandle.current().fencingToken());
			BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
			while (!"release".equals(input.readLine())) {
				Thread.onSpinWait();
			}
		}

		@DistributedLock(key = "'counter-file'")
		void increment(CounterFile counter) throws Exception {
			counter.increment();
		}

	}

}
