package dev.zklock.benchmarks;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link HotKeyChart}.
 */
class HotKeyChartTests {

	private static final List<Variant> VARIANTS = List.of(Variant.parse("curator"), Variant.parse("spring-integration"),
			Variant.parse("ours-template"), Variant.parse("fair-local-lock"), Variant.parse("set-data"));

	@Test
	void theHotKeyRowsAreDrawnAsAWidePng() throws Exception {
		List<ResultRow> rows = new ArrayList<>();
		rows.add(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, "set-data", 3000, 1, Exclusion.NOT_CHECKED,
				List.of()));
		addHotKey(rows, "curator", 1129, 1191, 1224);
		addHotKey(rows, "spring-integration", 889, 1116, 414);
		addHotKey(rows, "ours-template", 1799, 64679, 69586);
		addHotKey(rows, "fair-local-lock", 12951575, 87854, 81672);
		// Left in target/ for a reader to look at
		Path file = Path.of("target", "hot-key-chart", "hot-key.png");
		new HotKeyChart(VARIANTS, 1, rows).write(file);
		BufferedImage image = ImageIO.read(file.toFile());
		assertThat(image.getWidth()).isEqualTo(1000);
		assertThat(image.getHeight()).isEqualTo(620);
	}

	@Test
	void aRunWithoutTheHotKeyScenarioHasNoChart() {
		List<ResultRow> rows = List.of(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, "curator", 1000, 2,
				Exclusion.NOT_CHECKED, List.of()));
		assertThatIllegalStateException()
			.isThrownBy(() -> new HotKeyChart(VARIANTS, 1, rows).write(Path.of("target", "no-chart.png")))
			.withMessage("No hot-key results to chart: run the hot-key scenario");
	}

	private static void addHotKey(List<ResultRow> rows, String variant, double one, double four, double sixteen) {
		int[] threads = { 1, 4, 16 };
		double[] throughputs = { one, four, sixteen };
		for (int i = 0; i < threads.length; i++) {
			rows.add(new ResultRow(Scenario.HOT_KEY, threads[i] + " threads", threads[i], variant, throughputs[i],
					variant.equals("fair-local-lock") ? 0 : 2, Exclusion.HELD, List.of()));
		}
	}

}
