package dev.zklock.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws the hot-key scenario as a PNG line chart: throughput against the number of
 * threads of one JVM, a line per variant and a dashed one for the limit, the fair local
 * lock, both axes logarithmic so that libraries tens of times apart stay readable, and
 * each point's value beside it. XChart draws it, headless.
 */
final class HotKeyChart {

	private static final int WIDTH = 1000;

	private static final int HEIGHT = 620;

	/**
	 * About the height of the plot, in pixels, and of a line of the values, so that close
	 * values can be written a line apart.
	 */
	private static final double PLOT_HEIGHT = 430;

	private static final double VALUE_LINE_HEIGHT = 14;

	private static final Color[] COLORS = { new Color(0x55, 0x55, 0x55), new Color(0x2c, 0xa0, 0x2c),
			new Color(0x1f, 0x77, 0xb4), new Color(0xff, 0x7f, 0x0e), new Color(0x94, 0x67, 0xbd),
			new Color(0x8c, 0x56, 0x4b), new Color(0xd6, 0x27, 0x28) };

	private static final BasicStroke SOLID = new BasicStroke(3f);

	private static final BasicStroke DASHED = new BasicStroke(3f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
			new float[] { 10f, 6f }, 0f);

	private final List<Variant> variants;

	private final List<ResultRow> rows;

	private final int servers;

	/**
	 * Creates a chart of the hot-key rows among the given ones.
	 * @param variants the variants, in legend order; those that do not run in the hot-key
	 * scenario are left out
	 * @param servers the number of ZooKeeper servers of the run
	 * @param rows the rows of the run
	 */
	HotKeyChart(List<Variant> variants, int servers, List<ResultRow> rows) {
		this.servers = servers;
		this.variants = variants.stream().filter((variant) -> variant.runsIn(Scenario.HOT_KEY)).toList();
		this.rows = rows.stream().filter((row) -> row.scenario() == Scenario.HOT_KEY).toList();
	}

	/**
	 * Writes the chart.
	 * @param file the PNG file to write; its directory is created if missing
	 * @throws IOException if the file cannot be written
	 * @throws IllegalStateException if the run has no hot-key rows
	 */
	void write(Path file) throws IOException {
		if (this.rows.isEmpty()) {
			throw new IllegalStateException("No hot-key results to chart: run the hot-key scenario");
		}
		XYChart chart = chart();
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null) {
			Files.createDirectories(parent);
		}
		try (OutputStream out = Files.newOutputStream(file)) {
			BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
		}
	}

	/**
	 * The chart. The threads are on a linear axis of their logarithm, whose ticks XChart
	 * puts on the thread counts when these are evenly spaced on it, as 1, 4, 16 are.
	 */
	private XYChart chart() {
		XYChart chart = new XYChart(WIDTH, HEIGHT);
		chart.setTitle("One hot key: lock throughput against threads in one JVM");
		chart.setXAxisTitle("threads on the key (log scale)");
		chart.setYAxisTitle("acquisitions per second (log scale)");
		chart.setCustomXAxisTickLabelsFormatter(HotKeyChart::threadsAt);
		XYStyler styler = chart.getStyler();
		styler.setChartBackgroundColor(Color.WHITE);
		styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
		// Room under the title for the two lines of the subtitle
		styler.setChartTitlePadding(36);
		styler.setLegendPosition(LegendPosition.OutsideE);
		styler.setLegendBorderColor(Color.WHITE);
		styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
		styler.setYAxisLogarithmic(true);
		styler.setYAxisDecimalPattern("#,##0");
		styler.setMarkerSize(10);
		styler.setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		styler.setAnnotationTextFontColor(Color.DARK_GRAY);
		double lowest = this.rows.stream().mapToDouble(ResultRow::throughput).min().orElse(1);
		double highest = this.rows.stream().mapToDouble(ResultRow::throughput).max().orElse(1);
		double bottom = Math.pow(10, Math.floor(Math.log10(Math.max(1, lowest))));
		double top = Math.pow(10, Math.ceil(Math.log10(Math.max(bottom * 10, highest * 1.1))));
		styler.setYAxisMin(bottom);
		styler.setYAxisMax(top);
		for (Variant variant : this.variants) {
			addSeries(chart, variant);
		}
		addValues(chart, Math.log10(top / bottom));
		// In screen space, y counts from the bottom of the image
		chart.addAnnotation(new AnnotationText(
				"Acquire + release of one key, tiny critical section, all in the same run. Higher is better.",
				WIDTH / 2.0, HEIGHT - 79, true));
		chart.addAnnotation(new AnnotationText(
				"On " + BenchmarkServers.summary(this.servers) + "; dashed, the limit: a fair lock in the JVM.",
				WIDTH / 2.0, HEIGHT - 95, true));
		return chart;
	}

	private void addSeries(XYChart chart, Variant variant) {
		List<ResultRow> points = pointsOf(variant);
		if (points.isEmpty()) {
			return;
		}
		XYSeries series = chart.addSeries(variant.isLimit() ? variant.name() + " (limit)" : variant.name(),
				points.stream().mapToDouble((row) -> Math.log(row.threads())).toArray(),
				points.stream().mapToDouble(ResultRow::throughput).toArray());
		Color color = COLORS[this.variants.indexOf(variant) % COLORS.length];
		series.setLineColor(color);
		series.setMarkerColor(color);
		series.setMarker(SeriesMarkers.CIRCLE);
		series.setLineStyle(variant.isLimit() ? DASHED : SOLID);
	}

	/**
	 * Writes the values of each thread count beside their points, from the highest down,
	 * each at least a line below the one above, so that close values stay readable.
	 * @param decades the decades of throughput that the plot spans
	 */
	private void addValues(XYChart chart, double decades) {
		double line = decades * VALUE_LINE_HEIGHT / PLOT_HEIGHT;
		List<Integer> threadCounts = this.rows.stream().map(ResultRow::threads).distinct().sorted().toList();
		double span = Math.log(threadCounts.get(threadCounts.size() - 1)) - Math.log(threadCounts.get(0));
		double offset = 0.06 * Math.max(1, span);
		for (int threads : threadCounts) {
			double previous = Double.POSITIVE_INFINITY;
			for (ResultRow point : this.rows.stream()
				.filter((row) -> row.threads() == threads)
				.sorted(Comparator.comparingDouble(ResultRow::throughput).reversed())
				.toList()) {
				double at = Math.min(Math.log10(Math.max(1, point.throughput())), previous - line);
				chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "%.0f", point.throughput()),
						Math.log(threads) + offset, Math.pow(10, at), false));
				previous = at;
			}
		}
	}

	private List<ResultRow> pointsOf(Variant variant) {
		return this.rows.stream()
			.filter((row) -> row.variant().equals(variant.name()))
			.sorted(Comparator.comparingInt(ResultRow::threads))
			.toList();
	}

	/**
	 * The label of a tick of the thread axis: a whole number of threads, or two digits
	 * between thread counts that are not evenly spaced.
	 */
	private static String threadsAt(double logarithm) {
		double threads = Math.exp(logarithm);
		if (Math.abs(threads - Math.rint(threads)) < 1e-6 * threads) {
			return Long.toString(Math.round(threads));
		}
		return new BigDecimal(threads).round(new MathContext(2)).toPlainString();
	}

}
