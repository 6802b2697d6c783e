package dev.zklock.benchmarks;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import dev.zklock.benchmarks.HotKeyChart.Layout;
import dev.zklock.benchmarks.HotKeyChart.Text;
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

	private static final Path BENCHMARKS_PAGE = Path.of("..", "docs", "modules", "ROOT", "pages", "benchmarks.adoc");

	/**
	 * A row of the hot-key scenario in the results table of the benchmarks page:
	 * {@code |one hot key |4 threads |1,191 (1.00×) |...|87,854 (fair-local-lock)}.
	 */
	private static final Pattern PAGE_ROW = Pattern.compile("^\\|one hot key \\|(\\d+) threads? (\\|.*)$");

	private static final Pattern PAGE_VALUE = Pattern.compile("^([\\d,]+) \\((.+)\\)$");

	@Test
	void theHotKeyRowsAreDrawnAsAWidePng() throws Exception {
		List<ResultRow> rows = new ArrayList<>();
		rows.add(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, "set-data", 3000, 1, Exclusion.NOT_CHECKED,
				List.of()));
		rows.addAll(hotKey("curator", 1129, 1191, 1224));
		rows.addAll(hotKey("spring-integration", 889, 1116, 414));
		rows.addAll(hotKey("ours-template", 1799, 64679, 69586));
		rows.addAll(hotKey("fair-local-lock", 12951575, 87854, 81672));
		// Left in target/ for a reader to look at
		Path file = Path.of("target", "hot-key-chart", "hot-key.png");
		HotKeyChart chart = new HotKeyChart(VARIANTS, 1, rows);
		chart.write(file);
		BufferedImage image = ImageIO.read(file.toFile());
		assertThat(image.getWidth()).isEqualTo(1000);
		assertThat(image.getHeight()).isEqualTo(chart.layout().height()).isLessThan(image.getWidth());
		assertThat(chart.layout().series()).extracting(HotKeyChart.Series::name)
			.containsExactly("curator", "spring-integration", "ours-template", "fair-local-lock (limit)");
	}

	@Test
	void noTextCoversAnotherTextOrThePlot() {
		List<ResultRow> rows = new ArrayList<>();
		rows.addAll(hotKey("curator", 1129, 1191, 1224));
		rows.addAll(hotKey("spring-integration", 889, 1116, 414));
		rows.addAll(hotKey("ours-template", 1799, 64679, 69586));
		rows.addAll(hotKey("fair-local-lock", 12951575, 87854, 81672));
		assertNoTextCovers(new HotKeyChart(VARIANTS, 1, rows).layout());
		assertNoTextCovers(new HotKeyChart(VARIANTS, 3, rows).layout());
		List<ResultRow> fiveThreadCounts = new ArrayList<>();
		for (int threads : new int[] { 1, 2, 4, 8, 16 }) {
			fiveThreadCounts.add(row("curator", threads, 1000 + threads));
			fiveThreadCounts.add(row("ours-template", threads, 1001 + threads * 4000));
			fiveThreadCounts.add(row("fair-local-lock", threads, 12_000_000.0 / threads));
		}
		assertNoTextCovers(new HotKeyChart(VARIANTS, 1, fiveThreadCounts).layout());
	}

	/**
	 * Draws the chart of the guide's benchmarks page from the hot-key rows of the page's
	 * results table, with the variants of the command the page gives, as the harness
	 * would have drawn it with {@code --chart}: after a change to the chart, copy
	 * {@code target/hot-key-chart/benchmark-hot-key.png} over
	 * {@code docs/modules/ROOT/images/benchmark-hot-key.png}.
	 */
	@Test
	void theBenchmarksPageChartIsDrawnFromThePageResultsWithoutCoveredTexts() throws IOException {
		List<ResultRow> rows = pageHotKeyRows();
		assertThat(rows).hasSize(18);
		List<Variant> variants = BenchmarkOptions
			.parse("--all", "--variant", "ours-no-handoff=ours-template:distributed-lock.hand-off.enabled=false")
			.variants();
		HotKeyChart chart = new HotKeyChart(variants, 1, rows);
		assertNoTextCovers(chart.layout());
		assertThat(chart.layout().series()).extracting(HotKeyChart.Series::name)
			.containsExactly("curator", "spring-integration", "ours-annotation", "ours-template",
					"fair-local-lock (limit)", "ours-no-handoff");
		chart.write(Path.of("target", "hot-key-chart", "benchmark-hot-key.png"));
	}

	@Test
	void theEstimatedTextBoxesHoldTheDrawnTexts() {
		FontRenderContext context = new FontRenderContext(null, true, true);
		for (Text text : new HotKeyChart(VARIANTS, 3, hotKey("fair-local-lock", 12951575, 87854, 81672)).layout()
			.texts()) {
			Font font = new Font(Font.SANS_SERIF, text.bold() ? Font.BOLD : Font.PLAIN, text.size());
			double drawn = font.getStringBounds(text.text(), context).getWidth();
			double room = text.vertical() ? text.bounds().getHeight() : text.bounds().getWidth();
			assertThat(drawn).as(text.text()).isLessThanOrEqualTo(room);
		}
	}

	@Test
	void aRunWithoutTheHotKeyScenarioHasNoChart() {
		List<ResultRow> rows = List.of(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, "curator", 1000, 2,
				Exclusion.NOT_CHECKED, List.of()));
		assertThatIllegalStateException()
			.isThrownBy(() -> new HotKeyChart(VARIANTS, 1, rows).write(Path.of("target", "no-chart.png")))
			.withMessage("No hot-key results to chart: run the hot-key scenario");
	}

	/**
	 * Checks every text's box, estimated from its font size and its number of characters,
	 * against every other text's and the plot's: none may cross another, or the plot
	 * where the lines and markers are, or leave the image.
	 */
	private static void assertNoTextCovers(Layout layout) {
		List<Text> texts = layout.texts();
		Rectangle2D image = new Rectangle2D.Double(0, 0, layout.width(), layout.height());
		for (int i = 0; i < texts.size(); i++) {
			Text text = texts.get(i);
			Rectangle2D box = estimatedBox(text);
			assertThat(image.contains(box)).as("'%s' inside the image", text.text()).isTrue();
			assertThat(box.intersects(layout.plot())).as("'%s' over the plot", text.text()).isFalse();
			for (int j = i + 1; j < texts.size(); j++) {
				Text other = texts.get(j);
				assertThat(box.intersects(estimatedBox(other))).as("'%s' over '%s'", text.text(), other.text())
					.isFalse();
			}
		}
	}

	/**
	 * The text's box, at least as wide as 0.6 of its font size per character (wider than
	 * a sans-serif text's average character), and as tall as 1.2 sizes.
	 */
	private static Rectangle2D estimatedBox(Text text) {
		double length = text.text().length() * text.size() * 0.6;
		double height = text.size() * 1.2;
		Rectangle2D box = text.bounds();
		if (text.vertical()) {
			assertThat(box.getHeight()).as("length of '%s'", text.text()).isGreaterThanOrEqualTo(length);
			assertThat(box.getWidth()).as("height of '%s'", text.text()).isGreaterThanOrEqualTo(height);
		}
		else {
			assertThat(box.getWidth()).as("width of '%s'", text.text()).isGreaterThanOrEqualTo(length);
			assertThat(box.getHeight()).as("height of '%s'", text.text()).isGreaterThanOrEqualTo(height);
		}
		return box;
	}

	/**
	 * The hot-key rows of the first results table of the benchmarks page: its header
	 * names the variants, the last column is the limit, named in brackets.
	 */
	private static List<ResultRow> pageHotKeyRows() throws IOException {
		List<String> header = null;
		List<ResultRow> rows = new ArrayList<>();
		for (String line : Files.readAllLines(BENCHMARKS_PAGE)) {
			if (line.startsWith("|scenario |setting |") && line.endsWith("|limit") && header == null) {
				header = List.of(line.substring(1).split(" \\|"));
				continue;
			}
			if (header != null && line.equals("|===") && !rows.isEmpty()) {
				break;
			}
			Matcher row = PAGE_ROW.matcher(line);
			if (header == null || !row.matches()) {
				continue;
			}
			int threads = Integer.parseInt(row.group(1));
			List<String> cells = List.of(row.group(2).substring(1).split(" ?\\|"));
			for (int i = 0; i < cells.size(); i++) {
				Matcher value = PAGE_VALUE.matcher(cells.get(i).trim());
				assertThat(value.matches()).as(cells.get(i)).isTrue();
				String variant = header.get(i + 2).trim();
				if (variant.equals("limit")) {
					variant = value.group(2);
				}
				rows.add(row(variant, threads, Double.parseDouble(value.group(1).replace(",", ""))));
			}
		}
		return rows;
	}

	private static List<ResultRow> hotKey(String variant, double one, double four, double sixteen) {
		return List.of(row(variant, 1, one), row(variant, 4, four), row(variant, 16, sixteen));
	}

	private static ResultRow row(String variant, int threads, double throughput) {
		return new ResultRow(Scenario.HOT_KEY, threads + ((threads == 1) ? " thread" : " threads"), threads, variant,
				throughput, variant.equals("fair-local-lock") ? 0 : 2, Exclusion.HELD, List.of());
	}

}
