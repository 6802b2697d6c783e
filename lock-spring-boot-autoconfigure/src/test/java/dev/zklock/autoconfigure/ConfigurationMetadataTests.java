package dev.zklock.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property is described in the generated metadata and in the guide's configuration
 * table.
 */
class ConfigurationMetadataTests {

	@Test
	void everyPropertyHasADescription() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[*]");
		assertThat(properties).isNotEmpty()
			.allSatisfy((property) -> assertThat((String) property.get("description")).as("%s", property.get("name"))
				.isNotBlank()
				.doesNotStartWith("The ")
				.doesNotStartWith("A "));
	}

	@Test
	void everyPropertyIsInTheGuide() throws IOException {
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		Path partials = Path.of("..", "docs", "modules", "ROOT", "partials");
		assertThat(Files.readString(Path.of("..", "docs", "modules", "ROOT", "pages", "configuration.adoc")))
			.contains("include::partial$configuration-properties.adoc[]");
		String table = Files.readString(partials.resolve("configuration-properties.adoc"));
		assertThat(names).allSatisfy((name) -> assertThat(table).contains("`" + name + "`"));
	}

	private static String metadata() throws IOException {
		try (InputStream stream = ConfigurationMetadataTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(stream).isNotNull();
			return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
