package dev.zklock.autoconfigure.web;

import dev.zklock.web.LockProblemDetailsExceptionHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.ProblemDetail;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of {@link LockProblemDetailsExceptionHandler}, which answers the
 * lock failures of Spring MVC and WebFlux controllers with problem details. It is opt-in,
 * as Spring Boot's own problem details are, by
 * {@code distributed-lock.web.problem-details.enabled=true}, and applies to a servlet
 * application with Spring MVC or a reactive one with WebFlux.
 */
@AutoConfiguration
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBooleanProperty("distributed-lock.web.problem-details.enabled")
@Conditional(LockProblemDetailsAutoConfiguration.OnSpringMvcOrWebFlux.class)
public final class LockProblemDetailsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockProblemDetailsExceptionHandler lockProblemDetailsExceptionHandler(MessageSource messageSource) {
		return new LockProblemDetailsExceptionHandler(messageSource);
	}

	static final class OnSpringMvcOrWebFlux extends AnyNestedCondition {

		OnSpringMvcOrWebFlux() {
			super(ConfigurationPhase.PARSE_CONFIGURATION);
		}

		@ConditionalOnWebApplication(type = Type.SERVLET)
		@ConditionalOnClass(DispatcherServlet.class)
		static final class SpringMvc {

		}

		@ConditionalOnWebApplication(type = Type.REACTIVE)
		@ConditionalOnClass(DispatcherHandler.class)
		static final class WebFlux {

		}

	}

}
