package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.zklock.autoconfigure.jdbc.JdbcLockFenceProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A misspelled property under {@code distributed-lock.jdbc-fence} fails start-up with an
 * exception naming it, and every property of that group in the generated metadata is
 * still accepted.
 */
class UnknownPropertiesTests {

	@ParameterizedTest
	@ValueSource(strings = { "distributed-lock.jdbc-fence.table=fence",
			"distributed-lock.jdbc-fence.initialise-schema=always" })
	void aMisspelledPropertyOfAGroupIsNamed(String property) {
		new ApplicationContextRunner().withUserConfiguration(FenceProperties.class)
			.withPropertyValues(property)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(UnboundConfigurationPropertiesException.class)
				.hasMessageContaining(property.substring(0, property.indexOf('='))));
	}

	@Test
	void everyDocumentedPropertyOfTheGroupsIsAccepted() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		List<String> values = properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith("distributed-lock.jdbc-fence."))
			.map((property) -> property.get("name") + "=" + sample(property))
			.toList();
		assertThat(values).hasSizeGreaterThan(1);
		new ApplicationContextRunner().withUserConfiguration(FenceProperties.class)
			.withPropertyValues(values.toArray(String[]::new))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static String sample(Map<String, Object> property) {
		Object defaultValue = property.get("defaultValue");
		if (defaultValue != null) {
			return String.valueOf(defaultValue);
		}
		return switch ((String) property.get("type")) {
			case "java.lang.Boolean" -> "false";
			default -> "sample";
		};
	}

	private static String metadata() throws IOException {
		try (InputStream stream = UnknownPropertiesTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(stream).isNotNull();
			return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(JdbcLockFenceProperties.class)
	static class FenceProperties {

	}

}
