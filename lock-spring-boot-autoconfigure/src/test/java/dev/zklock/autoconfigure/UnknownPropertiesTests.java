package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.zklock.autoconfigure.UnknownPropertiesException.UnknownProperty;
import dev.zklock.autoconfigure.jdbc.JdbcLockFenceProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * A property under {@code distributed-lock.} that no module defines fails start-up,
 * through Spring Boot's failure analysis, naming the property, where it came from and the
 * known property closest to it, and every property of the configuration metadata passes
 * in each of Spring Boot's relaxed forms. Without that check (an application context of
 * the properties alone), a misspelled property under {@code distributed-lock.jdbc-fence}
 * still fails binding.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesTests {

	@ParameterizedTest
	@CsvSource({ "distributed-lock.wait-tme=1s, distributed-lock.wait-time",
			"distributed-lock.lost-lock.action=interrupt, distributed-lock.lost-lock.actions",
			"distributed-lock.zookeeper.conect-string=zk1:2181, distributed-lock.zookeeper.connect-string" })
	void aMisspelledPropertyFailsStartUpNamingItsOriginAndTheClosestProperty(String property, String closest,
			CapturedOutput output) {
		String name = property.substring(0, property.indexOf('='));
		assertThatExceptionOfType(UnknownPropertiesException.class).isThrownBy(() -> application().run("--" + property))
			.satisfies((ex) -> assertThat(ex.getProperties()).containsExactly(
					new UnknownProperty(name, "\"" + name + "\" from property source \"commandLineArgs\"", closest)));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: " + name)
			.contains("Origin: \"" + name + "\" from property source \"commandLineArgs\"")
			.contains("Did you mean: " + closest + "?")
			.contains("distributed-lock.fail-on-unknown-properties=false")
			.doesNotContain("no ZooKeeper connect string");
	}

	@Test
	void aMisspelledPropertyInAFileIsReportedWithItsFileAndLine(CapturedOutput output) {
		assertThatExceptionOfType(UnknownPropertiesException.class)
			.isThrownBy(() -> application().run("--spring.config.location=classpath:unknown-property.yml"));
		assertThat(output).contains("Property: distributed-lock.zookeeper.conect-string")
			.contains("Origin: class path resource [unknown-property.yml] - 3:20")
			.contains("Did you mean: distributed-lock.zookeeper.connect-string?");
	}

	@Test
	void aMisspelledEnvironmentVariableIsReportedByItsName() {
		StandardEnvironment environment = environment(Map.of(), Map.of("DISTRIBUTED_LOCK_WAIT_TME", "1s"));
		assertThatExceptionOfType(UnknownPropertiesException.class).isThrownBy(() -> check(environment))
			.satisfies((ex) -> assertThat(ex.getProperties()).singleElement()
				.satisfies((property) -> assertThat(property.origin()).contains("DISTRIBUTED_LOCK_WAIT_TME"))
				.extracting(UnknownProperty::suggestion)
				.isEqualTo("distributed-lock.wait-time"));
	}

	@Test
	void aNameFarFromEveryPropertyHasNoSuggestion() {
		StandardEnvironment environment = environment(Map.of("distributed-lock.banana", "yellow"), Map.of());
		assertThatExceptionOfType(UnknownPropertiesException.class).isThrownBy(() -> check(environment))
			.satisfies((ex) -> assertThat(ex.getProperties()).singleElement()
				.extracting(UnknownProperty::suggestion)
				.isNull());
	}

	@Test
	void everyPropertyOfTheMetadataPassesInEveryRelaxedForm() throws IOException {
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		Map<String, Object> properties = new LinkedHashMap<>();
		Map<String, Object> variables = new LinkedHashMap<>();
		names.stream().filter((name) -> name.startsWith("distributed-lock.")).forEach((name) -> {
			properties.put(name, "true");
			properties.put(camelCase(name), "true");
			properties.put(name + "[0]", "true");
			properties.put(name + "[1]", "true");
			variables.put(name.toUpperCase().replace('.', '_').replace('-', '_'), "true");
			variables.put(name.toUpperCase().replace('.', '_').replace("-", ""), "true");
			variables.put(name.toUpperCase().replace('.', '_').replace('-', '_') + "_0", "true");
		});
		assertThat(properties).containsKeys("distributed-lock.zookeeper.connect-string[0]",
				"distributed-lock.lost-lock.actions[1]", "distributedLock.waitTime");
		assertThat(variables).containsKeys("DISTRIBUTED_LOCK_WAIT_TIME", "DISTRIBUTED_LOCK_ZOOKEEPER_CONNECT_STRING_0");
		assertThatNoException().isThrownBy(() -> check(environment(properties, variables)));
	}

	@Test
	void anApplicationWithValidPropertiesStarts() {
		assertThatNoException().isThrownBy(
				() -> application()
					.run("--distributed-lock.wait-time=1s", "--distributedLock.rootPath=/other",
							"--distributed-lock.zookeeper.connect-string[0]=zk1:2181")
					.close());
	}

	@Test
	void theCheckCanBeTurnedOff() {
		assertThatNoException().isThrownBy(() -> application()
			.run("--distributed-lock.fail-on-unknown-properties=false", "--distributed-lock.wait-tme=1s")
			.close());
	}

	@Test
	void aKeyBelowAMapPropertyIsKnown() throws IOException {
		URL metadata = getClass().getResource("/map-property-metadata/");
		try (URLClassLoader classLoader = new URLClassLoader(new URL[] { metadata }, null)) {
			KnownProperties known = KnownProperties.load(classLoader);
			assertThat(known.isKnown(ConfigurationPropertyName.of("distributed-lock.example.labels.team"))).isTrue();
			assertThat(known.isKnown(ConfigurationPropertyName.of("distributed-lock.example.labels[team.name]")))
				.isTrue();
			assertThat(known.isKnown(ConfigurationPropertyName.of("distributed-lock.example.enabled"))).isTrue();
			assertThat(known.isKnown(ConfigurationPropertyName.of("distributed-lock.example.enabled.more"))).isFalse();
			assertThat(known.isKnown(ConfigurationPropertyName.of("distributed-lock.example.label"))).isFalse();
		}
	}

	private static SpringApplication application() {
		SpringApplication application = new SpringApplication(EmptyConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application;
	}

	private static void check(StandardEnvironment environment) {
		new UnknownPropertiesCheck().postProcessEnvironment(environment, application());
	}

	private static StandardEnvironment environment(Map<String, Object> properties, Map<String, Object> variables) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		return environment;
	}

	private static String camelCase(String name) {
		StringBuilder camelCase = new StringBuilder();
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			camelCase.append((c == '-') ? Character.toUpperCase(name.charAt(++i)) : c);
		}
		return camelCase.toString();
	}

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
	static class EmptyConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(JdbcLockFenceProperties.class)
	static class FenceProperties {

	}

}
