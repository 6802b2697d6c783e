package dev.zklock.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Point2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * Draws the hot-key scenario as a PNG line chart: throughput against the number of
 * threads of one JVM, a line per variant and a dashed one for the limit, the fair local
 * lock, both axes logarithmic so that libraries tens of times apart stay readable. The
 * values are not written beside the points, where close values of different variants
 * (1,799, 1,821 and 1,822 acquisitions per second at one thread) would cover each other
 * and the lines, but in a table under the plot that is also the legend: a row per
 * variant, a column under each thread count.
 * <p>
 * Every text is laid out in a box estimated from its font size and its number of
 * characters ({@link Text#bounds()}), wider than the text that Java2D draws in it, and no
 * box crosses another or the plot, where the lines and markers are; the layout is
 * computed before anything is drawn ({@link #layout()}), so that a test can check it.
 * Java2D draws it, headless.
 */
final class HotKeyChart {

	static final int WIDTH = 1000;

	private static final int MARGIN = 20;

	private static final int PLOT_TOP = 120;

	private static final int PLOT_HEIGHT = 360;

	private static final int ROW_HEIGHT = 22;

	private static final int SWATCH_WIDTH = 34;

	private static final int TITLE_SIZE = 20;

	private static final int SUBTITLE_SIZE = 14;

	private static final int AXIS_TITLE_SIZE = 14;

	private static final int TICK_SIZE = 13;

	private static final int TABLE_SIZE = 14;

	private static final Color TEXT = new Color(0x22, 0x22, 0x22);

	private static final Color MUTED = new Color(0x55, 0x55, 0x55);

	private static final Color GRID = new Color(0xdd, 0xdd, 0xdd);

	private static final Color MINOR_GRID = new Color(0xf0, 0xf0, 0xf0);

	private static final Color[] COLORS = { new Color(0x55, 0x55, 0x55), new Color(0x2c, 0xa0, 0x2c),
			new Color(0x1f, 0x77, 0xb4), new Color(0xff, 0x7f, 0x0e), new Color(0x94, 0x67, 0xbd),
			new Color(0x8c, 0x56, 0x4b), new Color(0xd6, 0x27, 0x28) };

	private static final BasicStroke SOLID = new BasicStroke(3f);

	private static final BasicStroke DASHED = new BasicStroke(3f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
			new float[] { 10f, 6f }, 0f);

	private static final double MARKER = 10;

	private static final String TABLE_HEADER = "acquisitions per second";

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
		this.rows = rows.stream().filter((row) -> row.scenario() == Scenario.HOT_KEY).toList();
		this.variants = variants.stream()
			.filter((variant) -> variant.runsIn(Scenario.HOT_KEY))
			.filter((variant) -> this.rows.stream().anyMatch((row) -> row.variant().equals(variant.name())))
			.toList();
	}

	/**
	 * Writes the chart.
	 * @param file the PNG file to write; its directory is created if missing
	 * @throws IOException if the file cannot be written
	 * @throws IllegalStateException if the run has no hot-key rows
	 */
	void write(Path file) throws IOException {
		Layout layout = layout();
		BufferedImage image = new BufferedImage(layout.width(), layout.height(), BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		try {
			paint(graphics, layout);
		}
		finally {
			graphics.dispose();
		}
		Path parent = file.toAbsolutePath().getParent();
		if (parent != null) {
			Files.createDirectories(parent);
		}
		ImageIO.write(image, "png", file.toFile());
	}

	/**
	 * Lays the chart out: where every text, grid line and series goes.
	 * @return the layout
	 * @throws IllegalStateException if the run has no hot-key rows
	 */
	Layout layout() {
		if (this.rows.isEmpty()) {
			throw new IllegalStateException("No hot-key results to chart: run the hot-key scenario");
		}
		List<Integer> threadCounts = this.rows.stream().map(ResultRow::threads).distinct().sorted().toList();
		List<String> names = this.variants.stream().map(HotKeyChart::nameOf).toList();
		double lowest = this.rows.stream().mapToDouble(ResultRow::throughput).min().orElse(1);
		double highest = this.rows.stream().mapToDouble(ResultRow::throughput).max().orElse(1);
		double bottom = Math.pow(10, Math.floor(Math.log10(Math.max(1, lowest))));
		double top = Math.pow(10, Math.ceil(Math.log10(Math.max(bottom * 10, highest * 1.1))));

		// The columns of the table: a value's box is centred under its thread count
		double valueWidth = this.rows.stream()
			.mapToDouble((row) -> Text.widthOf(value(row.throughput()), TABLE_SIZE, false))
			.max()
			.orElse(0);
		for (int threads : threadCounts) {
			valueWidth = Math.max(valueWidth, Text.widthOf(threadsHeader(threads), TABLE_SIZE, true));
		}
		double inset = valueWidth / 2 + 8;
		double nameWidth = names.stream().mapToDouble((name) -> Text.widthOf(name, TABLE_SIZE, false)).max().orElse(0);
		nameWidth = Math.max(nameWidth, Text.widthOf(TABLE_HEADER, TABLE_SIZE, true) - SWATCH_WIDTH - 8);
		List<Double> decades = new ArrayList<>();
		for (double decade = bottom; decade <= top * 1.0001; decade *= 10) {
			decades.add(decade);
		}
		double tickWidth = decades.stream()
			.mapToDouble((decade) -> Text.widthOf(value(decade), TICK_SIZE, false))
			.max()
			.orElse(0);
		double axisLeft = MARGIN + Text.heightOf(AXIS_TITLE_SIZE) + 10 + tickWidth + 8;
		double tableLeft = MARGIN + SWATCH_WIDTH + 8 + nameWidth + 16 + valueWidth / 2 - inset;
		double plotLeft = Math.ceil(Math.max(axisLeft, tableLeft));
		double plotRight = WIDTH - MARGIN;
		Rectangle2D plot = new Rectangle2D.Double(plotLeft, PLOT_TOP, plotRight - plotLeft, PLOT_HEIGHT);
		Axes axes = new Axes(plot, inset, Math.log(threadCounts.get(0)),
				Math.log(threadCounts.get(threadCounts.size() - 1)), Math.log10(bottom), Math.log10(top));

		List<Text> texts = new ArrayList<>();
		texts.add(Text.left("One hot key: lock throughput against threads in one JVM", TITLE_SIZE, true, TEXT, MARGIN,
				34));
		texts.add(
				Text.left("Acquire + release of one key, tiny critical section, all in the same run. Higher is better.",
						SUBTITLE_SIZE, false, MUTED, MARGIN, 60));
		texts.add(Text.left("On " + BenchmarkServers.summary(this.servers) + ".", SUBTITLE_SIZE, false, MUTED, MARGIN,
				80));
		texts.add(Text.left("Dashed, the limit: a fair lock in the JVM. The values are in the table below.",
				SUBTITLE_SIZE, false, MUTED, MARGIN, 100));
		// Beside the widest tick label: its box's right side 0.3 of a size right of the
		// baseline
		texts.add(Text.vertical("acquisitions per second (log scale)", AXIS_TITLE_SIZE, MUTED,
				plotLeft - 8 - tickWidth - 8 - AXIS_TITLE_SIZE * 0.3, plot.getCenterY()));
		List<Double> grid = new ArrayList<>();
		List<Double> minorGrid = new ArrayList<>();
		for (double decade : decades) {
			double y = axes.y(decade);
			grid.add(y);
			texts.add(Text.right(value(decade), TICK_SIZE, false, MUTED, plotLeft - 8, y + TICK_SIZE * 0.35));
			for (int multiple : new int[] { 2, 5 }) {
				if (decade * multiple < top) {
					minorGrid.add(axes.y(decade * multiple));
				}
			}
		}
		double below = plot.getMaxY();
		for (int threads : threadCounts) {
			texts.add(Text.centred(Integer.toString(threads), TICK_SIZE, false, MUTED, axes.x(threads), below + 20));
		}
		texts.add(Text.centred("threads on the key (log scale)", AXIS_TITLE_SIZE, false, MUTED, plot.getCenterX(),
				below + 42));

		// The table: a header, then a row per variant with its swatch, name and values
		double header = below + 76;
		texts.add(Text.left(TABLE_HEADER, TABLE_SIZE, true, TEXT, MARGIN, header));
		for (int threads : threadCounts) {
			texts.add(Text.centred(threadsHeader(threads), TABLE_SIZE, true, TEXT, axes.x(threads), header));
		}
		List<Series> series = new ArrayList<>();
		for (int i = 0; i < this.variants.size(); i++) {
			Variant variant = this.variants.get(i);
			Color color = COLORS[i % COLORS.length];
			double baseline = header + (i + 1) * ROW_HEIGHT;
			texts.add(Text.left(names.get(i), TABLE_SIZE, false, color, MARGIN + SWATCH_WIDTH + 8, baseline));
			List<Point2D> points = new ArrayList<>();
			for (ResultRow row : pointsOf(variant)) {
				points.add(new Point2D.Double(axes.x(row.threads()), axes.y(Math.max(bottom, row.throughput()))));
				texts.add(Text.centred(value(row.throughput()), TABLE_SIZE, false, TEXT, axes.x(row.threads()),
						baseline));
			}
			double middle = baseline - TABLE_SIZE * 0.35;
			series.add(new Series(names.get(i), color, variant.isLimit(), points,
					new Line2D.Double(MARGIN, middle, MARGIN + SWATCH_WIDTH, middle)));
		}
		int height = (int) Math.ceil(header + this.variants.size() * ROW_HEIGHT + MARGIN);
		List<Double> columns = threadCounts.stream().map(axes::x).toList();
		return new Layout(WIDTH, height, plot, columns, grid, minorGrid, texts, series);
	}

	private static String threadsHeader(int threads) {
		return threads + ((threads == 1) ? " thread" : " threads");
	}

	private static String nameOf(Variant variant) {
		return variant.isLimit() ? variant.name() + " (limit)" : variant.name();
	}

	private static String value(double value) {
		return new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(value);
	}

	private List<ResultRow> pointsOf(Variant variant) {
		return this.rows.stream()
			.filter((row) -> row.variant().equals(variant.name()))
			.sorted(Comparator.comparingInt(ResultRow::threads))
			.toList();
	}

	private static void paint(Graphics2D graphics, Layout layout) {
		graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
		graphics.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
		graphics.setColor(Color.WHITE);
		graphics.fillRect(0, 0, layout.width(), layout.height());
		Rectangle2D plot = layout.plot();
		graphics.setStroke(new BasicStroke(1f));
		graphics.setColor(MINOR_GRID);
		for (double y : layout.minorGrid()) {
			graphics.draw(new Line2D.Double(plot.getMinX(), y, plot.getMaxX(), y));
		}
		graphics.setColor(GRID);
		for (double y : layout.grid()) {
			graphics.draw(new Line2D.Double(plot.getMinX(), y, plot.getMaxX(), y));
		}
		for (double x : layout.columns()) {
			graphics.draw(new Line2D.Double(x, plot.getMinY(), x, plot.getMaxY()));
		}
		graphics.setColor(MUTED);
		graphics.draw(plot);
		Shape clip = graphics.getClip();
		graphics.clip(plot);
		for (Series series : layout.series()) {
			Path2D line = new Path2D.Double();
			for (Point2D point : series.points()) {
				if (line.getCurrentPoint() == null) {
					line.moveTo(point.getX(), point.getY());
				}
				else {
					line.lineTo(point.getX(), point.getY());
				}
			}
			drawSeries(graphics, series, line, series.points());
		}
		graphics.setClip(clip);
		for (Series series : layout.series()) {
			Line2D swatch = series.swatch();
			drawSeries(graphics, series, swatch,
					List.of(new Point2D.Double(swatch.getBounds2D().getCenterX(), swatch.getY1())));
		}
		for (Text text : layout.texts()) {
			text.paint(graphics);
		}
	}

	private static void drawSeries(Graphics2D graphics, Series series, Shape line, List<Point2D> markers) {
		graphics.setColor(series.color());
		graphics.setStroke(series.dashed() ? DASHED : SOLID);
		graphics.draw(line);
		for (Point2D point : markers) {
			graphics.fill(new Ellipse2D.Double(point.getX() - MARKER / 2, point.getY() - MARKER / 2, MARKER, MARKER));
		}
	}

	/**
	 * The chart laid out, in pixels from the top left corner of the image.
	 *
	 * @param width the image's width
	 * @param height the image's height
	 * @param plot the plot, inside which the grid, lines and markers are drawn
	 * @param columns where the thread counts are across, each with a grid line
	 * @param grid the heights of the grid lines of the decades, each labelled
	 * @param minorGrid the heights of the grid lines between the decades
	 * @param texts every text of the chart
	 * @param series the lines, in legend order
	 */
	record Layout(int width, int height, Rectangle2D plot, List<Double> columns, List<Double> grid,
			List<Double> minorGrid, List<Text> texts, List<Series> series) {

	}

	/**
	 * A variant's line.
	 *
	 * @param name its name in the table
	 * @param color its colour
	 * @param dashed whether it is a limit, drawn dashed
	 * @param points its points, by thread count
	 * @param swatch where its row of the table shows the line
	 */
	record Series(String name, Color color, boolean dashed, List<Point2D> points, Line2D swatch) {

	}

	/**
	 * A text, with the box it is laid out in: as wide as {@link #widthOf} estimates
	 * (wider than sans-serif text that Java2D draws at that size), from the ascent above
	 * the baseline to the descent below it.
	 *
	 * @param text the text
	 * @param size the font size, in pixels
	 * @param bold whether the font is bold
	 * @param color the colour
	 * @param bounds the box; for a vertical text, turned with it
	 * @param alignment where the text sits in its box
	 * @param vertical whether the text reads upwards
	 */
	record Text(String text, int size, boolean bold, Color color, Rectangle2D bounds, Alignment alignment,
			boolean vertical) {

		/**
		 * The width of a character, in font sizes: more than the average advance of a
		 * sans-serif digit or lower-case letter (DejaVu Sans's digits are 0.64).
		 */
		private static final double CHARACTER = 0.66;

		private static final double BOLD_CHARACTER = 0.74;

		static double widthOf(String text, int size, boolean bold) {
			return text.length() * size * (bold ? BOLD_CHARACTER : CHARACTER);
		}

		static double heightOf(int size) {
			return size * 1.25;
		}

		static Text left(String text, int size, boolean bold, Color color, double x, double baseline) {
			return new Text(text, size, bold, color, box(x, baseline, widthOf(text, size, bold), size), Alignment.LEFT,
					false);
		}

		static Text right(String text, int size, boolean bold, Color color, double x, double baseline) {
			double width = widthOf(text, size, bold);
			return new Text(text, size, bold, color, box(x - width, baseline, width, size), Alignment.RIGHT, false);
		}

		static Text centred(String text, int size, boolean bold, Color color, double x, double baseline) {
			double width = widthOf(text, size, bold);
			return new Text(text, size, bold, color, box(x - width / 2, baseline, width, size), Alignment.CENTRE,
					false);
		}

		/**
		 * A text that reads upwards, centred on a point, its baseline on the right.
		 */
		static Text vertical(String text, int size, Color color, double baseline, double centreY) {
			double width = widthOf(text, size, false);
			return new Text(text, size, false, color,
					new Rectangle2D.Double(baseline - size * 0.95, centreY - width / 2, heightOf(size), width),
					Alignment.CENTRE, true);
		}

		private static Rectangle2D box(double x, double baseline, double width, int size) {
			return new Rectangle2D.Double(x, baseline - size * 0.95, width, heightOf(size));
		}

		double baseline() {
			return this.vertical ? this.bounds.getX() + this.size * 0.95 : this.bounds.getY() + this.size * 0.95;
		}

		void paint(Graphics2D graphics) {
			Font font = new Font(Font.SANS_SERIF, this.bold ? Font.BOLD : Font.PLAIN, this.size);
			graphics.setFont(font);
			graphics.setColor(this.color);
			FontMetrics metrics = graphics.getFontMetrics();
			double width = metrics.getStringBounds(this.text, graphics).getWidth();
			double room = this.vertical ? this.bounds.getHeight() : this.bounds.getWidth();
			double start = switch (this.alignment) {
				case LEFT -> 0;
				case RIGHT -> room - width;
				case CENTRE -> (room - width) / 2;
			};
			if (this.vertical) {
				AffineTransform transform = graphics.getTransform();
				graphics.translate(baseline(), this.bounds.getMaxY() - start);
				graphics.rotate(-Math.PI / 2);
				graphics.drawString(this.text, 0f, 0f);
				graphics.setTransform(transform);
			}
			else {
				graphics.drawString(this.text, (float) (this.bounds.getX() + start), (float) baseline());
			}
		}

	}

	/**
	 * Where a text sits in its box.
	 */
	enum Alignment {

		LEFT, RIGHT, CENTRE

	}

	/**
	 * The plot's scales: the logarithm of the threads across, that of the throughput
	 * upwards, each point of the first and last thread count an inset in from the sides.
	 */
	private record Axes(Rectangle2D plot, double inset, double firstThreads, double lastThreads, double bottom,
			double top) {

		double x(int threads) {
			double from = this.plot.getMinX() + this.inset;
			double to = this.plot.getMaxX() - this.inset;
			if (this.lastThreads == this.firstThreads) {
				return (from + to) / 2;
			}
			return from
					+ (Math.log(threads) - this.firstThreads) / (this.lastThreads - this.firstThreads) * (to - from);
		}

		double y(double throughput) {
			return this.plot.getMaxY()
					- (Math.log10(throughput) - this.bottom) / (this.top - this.bottom) * this.plot.getHeight();
		}

	}

}
