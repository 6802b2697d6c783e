package dev.zklock.benchmarks;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The Spring Boot application of zklock's variants: auto-configuration as an application
 * gets it from the starter, and one bean with an annotated method.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class BenchmarkApplication {

	@Bean
	AnnotatedWork annotatedWork() {
		return new AnnotatedWork();
	}

}
