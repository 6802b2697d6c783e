package dev.zklock.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * Draws the hot-key scenario as a PNG line chart: throughput against the number of
 * threads of one JVM, a line per variant and a dashed one for the limit, the fair local
 * lock, both axes logarithmic so that libraries tens of times apart stay readable. Java2D
 * only, so it works headless on any JDK.
 */
final class HotKeyChart {

	private static final int WIDTH = 1000;

	private static final int HEIGHT = 620;

	private static final int LEFT = 100;

	private static final int RIGHT = 230;

	private static final int TOP = 90;

	private static final int BOTTOM = 80;

	private static final Color[] COLORS = { new Color(0x55, 0x55, 0x55), new Color(0x2c, 0xa0, 0x2c),
			new Color(0x1f, 0x77, 0xb4), new Color(0xff, 0x7f, 0x0e), new Color(0x94, 0x67, 0xbd),
			new Color(0x8c, 0x56, 0x4b), new Color(0xd6, 0x27, 0x28) };

	private static final BasicStroke SOLID = new BasicStroke(3f);

	private static final BasicStroke DASHED = new BasicStroke(3f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
			new float[] { 10f, 6f }, 0f);

	private final List<Variant> variants;

	private final List<ResultRow> rows;

	private final List<Integer> threadCounts;

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
		this.threadCounts = this.rows.stream().map(ResultRow::threads).distinct().sorted().toList();
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
		BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		try {
			g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
			g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
			g.setColor(Color.WHITE);
			g.fillRect(0, 0, WIDTH, HEIGHT);
			Scale scale = Scale.spanning(this.rows.stream().mapToDouble(ResultRow::throughput).min().orElse(1),
					this.rows.stream().mapToDouble(ResultRow::throughput).max().orElse(1));
			drawFrame(g, scale);
			for (int i = 0; i < this.variants.size(); i++) {
				drawVariant(g, this.variants.get(i), color(this.variants.get(i)), scale, i);
			}
			for (int threads : this.threadCounts) {
				drawValues(g, threads, scale);
			}
		}
		finally {
			g.dispose();
		}
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null) {
			Files.createDirectories(parent);
		}
		ImageIO.write(image, "png", file.toFile());
	}

	private void drawFrame(Graphics2D g, Scale scale) {
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
		g.drawString("One hot key: lock throughput against threads in one JVM", LEFT, 34);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
		g.drawString("Acquire + release of one key, tiny critical section, all in the same run. Higher is better.",
				LEFT, 56);
		g.drawString("On " + BenchmarkServers.summary(this.servers) + "; dashed, the limit: a fair lock in the JVM.",
				LEFT, 75);
		int plotWidth = WIDTH - LEFT - RIGHT;
		int plotHeight = HEIGHT - TOP - BOTTOM;
		FontMetrics metrics = g.getFontMetrics();
		for (double value : scale.ticks()) {
			int y = scale.y(value);
			g.setColor(new Color(0xe0, 0xe0, 0xe0));
			g.drawLine(LEFT, y, LEFT + plotWidth, y);
			g.setColor(Color.DARK_GRAY);
			String label = String.format(Locale.ROOT, "%,.0f", value);
			g.drawString(label, LEFT - 10 - metrics.stringWidth(label), y + 5);
		}
		for (int threads : this.threadCounts) {
			int x = x(threads);
			g.setColor(new Color(0xe0, 0xe0, 0xe0));
			g.drawLine(x, TOP, x, TOP + plotHeight);
			g.setColor(Color.DARK_GRAY);
			String label = Integer.toString(threads);
			g.drawString(label, x - metrics.stringWidth(label) / 2, TOP + plotHeight + 22);
		}
		g.setColor(Color.BLACK);
		g.drawRect(LEFT, TOP, plotWidth, plotHeight);
		String xTitle = "threads on the key (log scale)";
		g.drawString(xTitle, LEFT + (plotWidth - metrics.stringWidth(xTitle)) / 2, HEIGHT - 28);
		Graphics2D rotated = (Graphics2D) g.create();
		rotated.rotate(-Math.PI / 2);
		String yTitle = "acquisitions per second (log scale)";
		rotated.drawString(yTitle, -(TOP + (plotHeight + metrics.stringWidth(yTitle)) / 2), 28);
		rotated.dispose();
	}

	private void drawVariant(Graphics2D g, Variant variant, Color color, Scale scale, int index) {
		List<ResultRow> points = this.rows.stream()
			.filter((row) -> row.variant().equals(variant.name()))
			.sorted((a, b) -> Integer.compare(a.threads(), b.threads()))
			.toList();
		g.setColor(color);
		g.setStroke(variant.isLimit() ? DASHED : SOLID);
		Path2D line = new Path2D.Double();
		for (ResultRow point : points) {
			if (line.getCurrentPoint() == null) {
				line.moveTo(x(point.threads()), scale.y(point.throughput()));
			}
			else {
				line.lineTo(x(point.threads()), scale.y(point.throughput()));
			}
		}
		g.draw(line);
		for (ResultRow point : points) {
			g.fillOval(x(point.threads()) - 5, scale.y(point.throughput()) - 5, 10, 10);
		}
		int legendY = TOP + 20 + index * 28;
		int legendX = WIDTH - RIGHT + 20;
		g.drawLine(legendX, legendY - 5, legendX + 30, legendY - 5);
		g.fillOval(legendX + 10, legendY - 10, 10, 10);
		g.setColor(Color.BLACK);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
		g.drawString(variant.isLimit() ? variant.name() + " (limit)" : variant.name(), legendX + 40, legendY);
	}

	/**
	 * Writes the values of one thread count beside their points, from the highest down,
	 * each at least a line below the one above and haloed in white, so that close values
	 * and crossing lines leave them readable.
	 */
	private void drawValues(Graphics2D g, int threads, Scale scale) {
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		List<ResultRow> points = this.rows.stream()
			.filter((row) -> row.threads() == threads)
			.sorted((a, b) -> Double.compare(b.throughput(), a.throughput()))
			.toList();
		int previous = Integer.MIN_VALUE;
		for (ResultRow point : points) {
			int y = Math.max(scale.y(point.throughput()) - 6, previous + 14);
			String value = String.format(Locale.ROOT, "%.0f", point.throughput());
			g.setColor(Color.WHITE);
			for (int[] offset : new int[][] { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) {
				g.drawString(value, x(threads) + 9 + offset[0], y + offset[1]);
			}
			g.setColor(this.variants.stream()
				.filter((variant) -> variant.name().equals(point.variant()))
				.findFirst()
				.map(this::color)
				.orElse(Color.BLACK));
			g.drawString(value, x(threads) + 9, y);
			previous = y;
		}
	}

	private Color color(Variant variant) {
		return COLORS[this.variants.indexOf(variant) % COLORS.length];
	}

	private int x(int threads) {
		int plotWidth = WIDTH - LEFT - RIGHT;
		double low = Math.log(this.threadCounts.get(0));
		double high = Math.log(this.threadCounts.get(this.threadCounts.size() - 1));
		if (high == low) {
			return LEFT + plotWidth / 2;
		}
		int margin = 40;
		return LEFT + margin + (int) Math.round((Math.log(threads) - low) / (high - low) * (plotWidth - 2 * margin));
	}

	/**
	 * A logarithmic throughput axis from a power of ten below the lowest value to one
	 * above the highest.
	 *
	 * @param bottom the value at the bottom of the plot
	 * @param top the value at the top of the plot
	 */
	private record Scale(double bottom, double top) {

		private static final double[] STEPS = { 1, 2, 5 };

		static Scale spanning(double lowest, double highest) {
			double bottom = Math.pow(10, Math.floor(Math.log10(Math.max(1, lowest))));
			double top = Math.pow(10, Math.ceil(Math.log10(Math.max(bottom * 10, highest * 1.1))));
			return new Scale(bottom, top);
		}

		/**
		 * The gridlines: 1, 2 and 5 times each power of ten between bottom and top.
		 */
		List<Double> ticks() {
			List<Double> ticks = new ArrayList<>();
			for (double decade = this.bottom; decade < this.top; decade *= 10) {
				for (double step : STEPS) {
					ticks.add(decade * step);
				}
			}
			ticks.add(this.top);
			return ticks;
		}

		int y(double value) {
			int plotHeight = HEIGHT - TOP - BOTTOM;
			double fraction = Math.log(Math.max(value, this.bottom) / this.bottom) / Math.log(this.top / this.bottom);
			return TOP + plotHeight - (int) Math.round(fraction * plotHeight);
		}

	}

}
