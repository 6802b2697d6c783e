package dev.zklock.autoconfigure.web;

import dev.zklock.web.LockProblemDetailsExceptionHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When {@link LockProblemDetailsAutoConfiguration} answers lock failures with problem
 * details: opted in, in a Spring MVC or a WebFlux application, unless the application has
 * its own handler.
 */
class LockProblemDetailsAutoConfigurationTests {

	private static final String ENABLED = "distributed-lock.web.problem-details.enabled=true";

	private static final AutoConfigurations CONFIGURATION = AutoConfigurations
		.of(LockProblemDetailsAutoConfiguration.class);

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(CONFIGURATION);

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(CONFIGURATION);

	@Test
	void aSpringMvcApplicationThatOptsInGetsTheHandler() {
		this.servlet.withPropertyValues(ENABLED)
			.run((context) -> assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void aWebFluxApplicationThatOptsInGetsTheHandler() {
		this.reactive.withPropertyValues(ENABLED)
			.run((context) -> assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void withoutThePropertyThereIsNoHandler() {
		this.servlet.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
		this.reactive.withPropertyValues("distributed-lock.web.problem-details.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void anApplicationThatIsNotAWebApplicationGetsNoHandler() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATION)
			.withPropertyValues(ENABLED)
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void aServletApplicationWithoutSpringMvcGetsNoHandler() {
		this.servlet.withPropertyValues(ENABLED)
			.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void aReactiveApplicationWithoutWebFluxGetsNoHandler() {
		this.reactive.withPropertyValues(ENABLED)
			.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	@Test
	void theApplicationsOwnHandlerIsKept() {
		this.servlet.withPropertyValues(ENABLED)
			.withUserConfiguration(OwnHandlerConfiguration.class)
			.run((context) -> assertThat(context).getBean(LockProblemDetailsExceptionHandler.class)
				.isSameAs(context.getBean(OwnHandlerConfiguration.class).handler));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHandlerConfiguration {

		final LockProblemDetailsExceptionHandler handler = new LockProblemDetailsExceptionHandler(null);

		@Bean
		LockProblemDetailsExceptionHandler ownHandler() {
			return this.handler;
		}

	}

}
