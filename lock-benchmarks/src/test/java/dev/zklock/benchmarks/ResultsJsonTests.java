package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ResultsJson}.
 */
class ResultsJsonTests {

	private static final List<Variant> VARIANTS = List.of(Variant.parse("curator"), Variant.parse("ours-template"),
			Variant.parse("set-data"), Variant.parse("fair-local-lock"));

	@TempDir
	Path directory;

	@Test
	void eachRowIsAnObjectWithItsRatiosLimitsCapacityAndMeasurementsToFourDecimals() throws Exception {
		ResultRow writeRate = new ResultRow(Scenario.WRITE_RATE, "4 connections", 4, "set-data", 10_000, 1,
				Exclusion.NOT_CHECKED, List.of(new Metric("writes measured", 20_000, "")));
		ResultRow curator = hotKey("curator", 500, 2, List.of());
		ResultRow template = hotKey("ours-template", 85_000, 0.5,
				List.of(new Metric("max wait", 12.345678, "ms"), new Metric("a \"quoted\" name", 1, "")));
		ResultRow fairLock = hotKey("fair-local-lock", 100_000, 0, List.of());
		List<ResultRow> rows = List.of(writeRate, curator, template, fairLock);
		JsonNode json = write(rows, new Report(VARIANTS, 3, rows));
		assertThat(json)
			.isEqualTo(JsonMapper.shared().readTree(getClass().getResourceAsStream("results-of-four-rows.json")));
		assertThat(json.get(0).propertyNames()).containsExactly("servers", "scenario", "setting", "threads", "variant",
				"throughput", "ratioToCurator", "ratioToOursTemplate", "limit", "throughputToLimit",
				"throughputToLimits", "writesPerAcquisition", "writeCapacity", "exclusion", "metrics");
	}

	@Test
	void aNumberThatIsNotFiniteIsNull() throws Exception {
		List<ResultRow> rows = List.of(hotKey("ours-template", 1000, Double.NaN, List.of()));
		JsonNode row = write(rows, new Report(VARIANTS, 1, rows)).get(0);
		assertThat(row.get("writesPerAcquisition").isNull()).isTrue();
		assertThat(row.get("ratioToCurator").isNull()).isTrue();
		assertThat(row.get("ratioToOursTemplate").doubleValue()).isEqualTo(1.0);
		assertThat(row.get("throughput").doubleValue()).isEqualTo(1000);
	}

	private JsonNode write(List<ResultRow> rows, Report report) throws Exception {
		Path file = this.directory.resolve("results.json");
		ResultsJson.write(file, rows, report);
		return JsonMapper.shared().readTree(Files.readString(file));
	}

	private static ResultRow hotKey(String variant, double throughput, double writesPerAcquisition,
			List<Metric> metrics) {
		return new ResultRow(Scenario.HOT_KEY, "16 threads", 16, variant, throughput, writesPerAcquisition,
				Exclusion.HELD, metrics);
	}

}
