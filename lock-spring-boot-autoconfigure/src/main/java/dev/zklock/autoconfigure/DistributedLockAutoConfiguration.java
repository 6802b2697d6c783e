package dev.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.zookeeper.LockSessionClients;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperProperties;
import dev.zklock.interceptor.DistributedLockAnnotationBeanPostProcessor;
import dev.zklock.zookeeper.HandOffPolicy;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of distributed locks on ZooKeeper: the lock registry, the
 * {@link LockTemplate} and the {@link dev.zklock.DistributedLock} post-processor. It
 * needs a {@link CuratorFramework} bean, its own or the application's; without one,
 * start-up fails rather than letting annotated methods run unlocked. The registry spreads
 * its keys over the sessions of that client and of the auto-configuration's
 * {@link LockSessionClients}, if any ({@code distributed-lock.zookeeper.sessions}). The
 * template's locks are observed through the application's {@link ObservationRegistry},
 * when it has one (Spring Boot's actuator provides it, and turns the observations into
 * metrics).
 */
@AutoConfiguration(after = ZooKeeperAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class DistributedLockAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperLockRegistry zooKeeperLockRegistry(CuratorFramework curatorFramework,
			ObjectProvider<LockSessionClients> lockSessionClients, DistributedLockProperties properties,
			ObjectProvider<ZooKeeperProperties> zooKeeperProperties, Environment environment) {
		HandOffPolicy handOffPolicy = properties.getHandOff().toPolicy();
		ZooKeeperLockRegistry registry;
		try {
			registry = new ZooKeeperLockRegistry(clients(curatorFramework, lockSessionClients),
					properties.getRootPath(), properties.getLostLock().toPolicy(), handOffPolicy);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.root-path", properties.getRootPath(),
					ex.getMessage());
		}
		registry.setApplicationName(environment.getProperty("spring.application.name"));
		if (zooKeeperProperties.getIfAvailable(ZooKeeperProperties::new).getAuthentication().getUsername() != null) {
			registry.guardRoot();
		}
		return registry;
	}

	@Bean
	@ConditionalOnMissingBean
	LockTemplate lockTemplate(ZooKeeperLockRegistry zooKeeperLockRegistry, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		if (properties.getWaitTime().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.wait-time", properties.getWaitTime(),
					"The wait time must not be negative.");
		}
		LockTemplate lockTemplate = new LockTemplate(zooKeeperLockRegistry, properties.getWaitTime());
		lockTemplate.setObservationRegistry(observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP));
		return lockTemplate;
	}

	@Bean
	StartupConnectionCheck distributedLockStartupConnectionCheck(CuratorFramework curatorFramework,
			ObjectProvider<LockSessionClients> lockSessionClients, ZooKeeperLockRegistry zooKeeperLockRegistry,
			DistributedLockProperties properties) {
		return new StartupConnectionCheck(clients(curatorFramework, lockSessionClients), zooKeeperLockRegistry,
				properties.getStartup());
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAnnotationBeanPostProcessor distributedLockAnnotationBeanPostProcessor(
			Environment environment) {
		DistributedLockAnnotationBeanPostProcessor postProcessor = new DistributedLockAnnotationBeanPostProcessor();
		postProcessor.setBeforeExistingAdvisors(
				Binder.get(environment).bind("distributed-lock.wrap-transaction", Boolean.class).orElse(true));
		return postProcessor;
	}

	/**
	 * The clients of the lock registry's sessions: the application's client first, then
	 * the auto-configuration's further ones, if any.
	 */
	private static List<CuratorFramework> clients(CuratorFramework curatorFramework,
			ObjectProvider<LockSessionClients> lockSessionClients) {
		List<CuratorFramework> clients = new ArrayList<>();
		clients.add(curatorFramework);
		lockSessionClients.ifAvailable((furtherSessions) -> clients.addAll(furtherSessions.clients()));
		return clients;
	}

}
