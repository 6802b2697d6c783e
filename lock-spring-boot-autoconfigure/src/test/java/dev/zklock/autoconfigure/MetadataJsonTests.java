package dev.zklock.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The metadata's JSON is read whole, with or without Jackson on the class path (Spring
 * Boot's basic parser, its fallback, lost every property but the first).
 */
class MetadataJsonTests {

	@Test
	void theGeneratedMetadataReadsAsJsonPathReadsIt() throws IOException {
		String json = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getContentAsString(StandardCharsets.UTF_8);
		List<Object> properties = JsonPath.read(json, "$.properties[*]");
		assertThat(properties).hasSizeGreaterThan(30);
		assertThat(MetadataJson.parseObject(json).get("properties")).asInstanceOf(InstanceOfAssertFactories.LIST)
			.hasSameSizeAs(properties)
			.allSatisfy((property) -> assertThat(property).isInstanceOf(Map.class))
			.extracting((property) -> ((Map<?, ?>) property).get("name"))
			.containsExactlyElementsOf(JsonPath.read(json, "$.properties[*].name"));
	}

	@Test
	void valuesOfEveryKindAreRead() {
		Map<String, Object> object = MetadataJson.parseObject(
				"{ \"s\": \"a \\\"quoted\\\", \\u00e9 \\\\ text\", \"n\": -12, \"d\": 1.5e2, \"t\": true, \"f\": false,"
						+ " \"z\": null, \"l\": [1, [], {}], \"o\": {\"k\": [\"v\"]} }");
		assertThat(object).containsEntry("s", "a \"quoted\", \u00e9 \\ text")
			.containsEntry("n", -12L)
			.containsEntry("d", 150.0)
			.containsEntry("t", true)
			.containsEntry("f", false)
			.containsEntry("z", null)
			.containsEntry("l", List.of(1L, List.of(), Map.of()))
			.containsEntry("o", Map.of("k", List.of("v")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "[]", "{\"a\": 1", "{\"a\" 1}", "{\"a\": tru}", "{\"a\": 1,}" })
	void malformedJsonIsRejected(String json) {
		assertThatIllegalArgumentException().isThrownBy(() -> MetadataJson.parseObject(json));
	}

}
