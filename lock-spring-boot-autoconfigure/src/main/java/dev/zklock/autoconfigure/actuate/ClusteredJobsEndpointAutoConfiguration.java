package dev.zklock.autoconfigure.actuate;

import dev.zklock.actuate.ClusteredJobsEndpoint;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.scheduling.ClusteredJobAnnotationBeanPostProcessor;
import dev.zklock.scheduling.JobRecords;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code clusteredjobs} actuator endpoint
 * ({@link ClusteredJobsEndpoint}), when the actuator is present, the application has
 * clustered jobs and the endpoint is exposed.
 */
@AutoConfiguration(after = ClusteredJobAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
public final class ClusteredJobsEndpointAutoConfiguration {

	// The endpoint conditions sit on a nested class: without the actuator, the class
	// condition above skips it before its condition classes are loaded.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean({ ClusteredJobAnnotationBeanPostProcessor.class, JobRecords.class })
	@ConditionalOnAvailableEndpoint(ClusteredJobsEndpoint.class)
	static class ClusteredJobsEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClusteredJobsEndpoint clusteredJobsEndpoint(ClusteredJobAnnotationBeanPostProcessor jobs, JobRecords records) {
			return new ClusteredJobsEndpoint(jobs, records);
		}

	}

}
