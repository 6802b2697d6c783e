package dev.zklock.benchmarks;

import dev.zklock.autoconfigure.zookeeper.CuratorFrameworkBuilderCustomizer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The Spring Boot application of zklock's variants: auto-configuration as an application
 * gets it from the starter, one bean with an annotated method, and the counting of the
 * auto-configured client's ZooKeeper writes.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class BenchmarkApplication {

	@Bean
	AnnotatedWork annotatedWork() {
		return new AnnotatedWork();
	}

	@Bean
	ZooKeeperWrites zooKeeperWrites() {
		return new ZooKeeperWrites();
	}

	@Bean
	CuratorFrameworkBuilderCustomizer countZooKeeperWrites(ZooKeeperWrites writes) {
		return (builder) -> builder.zookeeperFactory(writes);
	}

}
