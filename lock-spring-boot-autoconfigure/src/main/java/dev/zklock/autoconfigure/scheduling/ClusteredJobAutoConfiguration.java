package dev.zklock.autoconfigure.scheduling;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.MissedRuns;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.DistributedLockProperties;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperProperties;
import dev.zklock.scheduling.ClusteredJobAnnotationBeanPostProcessor;
import dev.zklock.scheduling.ClusteredJobMetrics;
import dev.zklock.scheduling.ClusteredJobSchedulingConfigurer;
import dev.zklock.scheduling.JobRecords;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.config.TaskManagementConfigUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@link dev.zklock.ClusteredJob}s, when Spring's scheduling
 * is enabled ({@code @EnableScheduling}): the post-processor that finds them, their
 * records in ZooKeeper, the scheduling configurer that runs them once per scheduled time
 * across the instances, and their meters when the application has a
 * {@link MeterRegistry}. With digest authentication, the records' root is guarded as the
 * lock root is (see {@link JobRecords#guardRoot()}). Without scheduling,
 * {@code @Scheduled} methods do not run and nothing is configured.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBean(name = TaskManagementConfigUtils.SCHEDULED_ANNOTATION_PROCESSOR_BEAN_NAME)
@EnableConfigurationProperties(ClusteredJobProperties.class)
public final class ClusteredJobAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static ClusteredJobAnnotationBeanPostProcessor clusteredJobAnnotationBeanPostProcessor() {
		return new ClusteredJobAnnotationBeanPostProcessor();
	}

	@Bean
	@ConditionalOnMissingBean
	JobRecords clusteredJobRecords(CuratorFramework curatorFramework, ClusteredJobProperties properties,
			ObjectProvider<DistributedLockProperties> lockProperties,
			ObjectProvider<ZooKeeperProperties> zooKeeperProperties) {
		String rootPath = properties.getRootPath();
		String lockRoot = lockProperties.getIfAvailable(DistributedLockProperties::new).getRootPath();
		if (rootPath.equals(lockRoot) || rootPath.startsWith(lockRoot + "/") || lockRoot.startsWith(rootPath + "/")) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.scheduling.root-path", rootPath,
					"The job records must live apart from the lock nodes: the path must not be, contain or lie "
							+ "under distributed-lock.root-path (" + lockRoot + ").");
		}
		JobRecords records;
		try {
			records = new JobRecords(curatorFramework, rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.scheduling.root-path", rootPath,
					ex.getMessage());
		}
		if (zooKeeperProperties.getIfAvailable(ZooKeeperProperties::new).getAuthentication().getUsername() != null) {
			records.guardRoot();
		}
		return records;
	}

	@Bean
	@ConditionalOnMissingBean
	ClusteredJobSchedulingConfigurer clusteredJobSchedulingConfigurer(ClusteredJobAnnotationBeanPostProcessor jobs,
			LockTemplate lockTemplate, JobRecords clusteredJobRecords, ClusteredJobProperties properties,
			ObjectProvider<ClusteredJobMetrics> metrics, Environment environment) {
		if (properties.getMissedRuns() == MissedRuns.DEFAULT) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.scheduling.missed-runs",
					properties.getMissedRuns(), "The default for the jobs must be 'run-once' or 'skip'.");
		}
		Duration lockWait = properties.getLockWait();
		if (lockWait.isNegative()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.scheduling.lock-wait", lockWait,
					"The lock wait must not be negative.");
		}
		return new ClusteredJobSchedulingConfigurer(jobs, lockTemplate, clusteredJobRecords, properties.getMissedRuns(),
				lockWait, instanceName(environment.getProperty("spring.application.name")), metrics.getIfAvailable());
	}

	/**
	 * How the records name this instance: the application's name, the host and the
	 * process id ({@code orders@host-1/4242}).
	 */
	private static String instanceName(String applicationName) {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (UnknownHostException ex) {
			host = "unknown-host";
		}
		return ((applicationName != null) ? applicationName + "@" : "") + host + "/" + ProcessHandle.current().pid();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class ClusteredJobMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClusteredJobMetrics clusteredJobMetrics(MeterRegistry meterRegistry) {
			return new ClusteredJobMetrics(meterRegistry);
		}

	}

}
