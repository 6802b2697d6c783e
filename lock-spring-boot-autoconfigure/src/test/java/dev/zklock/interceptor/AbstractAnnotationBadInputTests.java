package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad {@link DistributedLock} attributes fail start-up with an
 * {@link IllegalStateException} naming the attribute and the method, rather than failing
 * at the first call or running the method unlocked. Each subclass lists its services, one
 * bad attribute on a method {@code work} each, with what the failure names, in a static
 * {@code badAttributesFailStartUp()}.
 *
 * @see KeyExpressionBadInputTests
 */
abstract class AbstractAnnotationBadInputTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner startUp = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
				"orders.bad-duration=soon", "orders.negative-duration=-2s");

	@ParameterizedTest
	@MethodSource
	void badAttributesFailStartUp(Class<?> service, String[] culprits) {
		this.startUp.withBean(service).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof IllegalStateException && failure.getMessage() != null
					&& failure.getMessage().startsWith("@DistributedLock"))) {
				failure = failure.getCause();
			}
			assertThat(failure).as("an IllegalStateException about the annotation in %s", context.getStartupFailure())
				.isNotNull();
			assertThat(failure).hasMessageContaining(service.getSimpleName() + ".work(");
			for (String culprit : culprits) {
				assertThat(failure).hasMessageContaining(culprit);
			}
		});
	}

	static Arguments startUpFailure(Class<?> service, String... culprits) {
		return Arguments.of(Named.of(service.getSimpleName(), service), culprits);
	}

}
