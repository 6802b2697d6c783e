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
 * Every property is described in the generated metadata and in the README's configuration
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
	void everyPropertyIsInTheReadme() throws IOException {
		List<String> names = JsonPath.read(metadata(), "$.properties[*].name");
		String readme = Files.readString(Path.of("..", "README.md"));
		assertThat(names).allSatisfy((name) -> assertThat(readme).contains("`" + name + "`"));
	}

	private static String metadata() throws IOException {
		try (InputStream stream = ConfigurationMetadataTests.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(stream).isNotNull();
			return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
