package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A malformed {@link DistributedLock} fails start-up with Spring Boot's report naming the
 * method, the attribute and the fix.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidLockAnnotationFailureAnalyzerTests {

	@Test
	void applicationThatFailsToStartReportsTheMethodTheAttributeAndTheFix(CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> new SpringApplicationBuilder(BadKeyApplication.class).web(WebApplicationType.NONE)
				.properties("distributed-lock.zookeeper.connect-string=127.0.0.1:2999", "spring.main.banner-mode=off")
				.run()
				.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Method:    " + BadKey.class.getName() + ".reserve(String)")
			.contains("Attribute: key")
			.contains("refers to '#sku', which is not a parameter")
			.contains("Refer only to the method's parameters");
	}

	@Test
	void analysisOfAFailedContextNamesTheAttributeAtFault() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999")
			.withBean(BadWaitTime.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidLockAnnotationFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains(BadWaitTime.class.getName() + ".reserve(String)")
					.contains("Attribute: waitTime")
					.contains("'soon'");
				assertThat(analysis.getAction()).contains("'500ms', '5s' or 'PT5S'");
			});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class BadKeyApplication {

		@Bean
		BadKey badKey() {
			return new BadKey();
		}

	}

	static class BadKey {

		@DistributedLock(key = "'stock:' + #sku")
		public String reserve(String item) {
			return item;
		}

	}

	static class BadWaitTime {

		@DistributedLock(key = "#item", waitTime = "soon")
		public String reserve(String item) {
			return item;
		}

	}

}
