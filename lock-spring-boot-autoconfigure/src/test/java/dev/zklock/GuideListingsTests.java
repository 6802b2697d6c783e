package dev.zklock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No code sample of the guide or of the README is pasted by hand: every Java, YAML and
 * properties listing of the guide's pages includes a tagged region (or the whole) of a
 * source that the build compiles and a test runs, and every such listing of the README
 * is, character for character, a tagged region or the whole of one of the test sources.
 * The includes name files and tags that exist, so a renamed sample fails here before the
 * guide's build does.
 */
class GuideListingsTests {

	private static final Path ROOT = Path.of("..");

	private static final Path PAGES = ROOT.resolve(Path.of("docs", "modules", "ROOT", "pages"));

	private static final Set<String> CODE_LANGUAGES = Set.of("java", "kotlin", "yaml", "yml", "properties");

	/**
	 * A block attribute line that makes the next listing a source listing: its first
	 * positional attribute is {@code source} or empty, its second the language (absent,
	 * the guide's {@code source-language}, Java).
	 */
	private static final Pattern SOURCE_ATTRIBUTES = Pattern.compile("^\\[(source)?(?:%[\\w%]+)?(?:,([\\w-]*))?.*\\]$");

	private static final Pattern INCLUDE = Pattern.compile("^include::example\\$([\\w-]+)/([^\\[]+)\\[(.*)\\]$");

	private static final Pattern TAG = Pattern.compile("(?:^|,)tags?=([\\w;-]+)");

	private static final Pattern MARKDOWN_CODE = Pattern.compile("(?m)^```(\\w+)\\n(.*?)^```$", Pattern.DOTALL);

	private static final Pattern TAG_DIRECTIVE = Pattern.compile("(?:tag|end)::[\\w-]+\\[\\]");

	@Test
	void everyCodeListingOfTheGuideIsAnIncludeOfATestedSource() throws IOException {
		List<String> pasted = new ArrayList<>();
		int includes = 0;
		for (Path page : pages()) {
			for (Listing listing : listings(page)) {
				if (!CODE_LANGUAGES.contains(listing.language())) {
					continue;
				}
				if (listing.lines().stream().allMatch((line) -> line.isBlank() || line.startsWith("include::"))
						&& listing.lines().stream().anyMatch((line) -> line.startsWith("include::"))) {
					includes++;
				}
				else {
					pasted.add(page.getFileName() + ":" + listing.line() + " [" + listing.language() + "]");
				}
			}
		}
		assertThat(pasted)
			.as("Java, YAML and properties listings pasted by hand instead of included from a tested source")
			.isEmpty();
		assertThat(includes).as("included listings").isPositive();
	}

	@Test
	void everyListingOfTheGuideNamesItsLanguage() throws IOException {
		List<String> unnamed = new ArrayList<>();
		for (Path page : pages()) {
			for (Listing listing : listings(page)) {
				if (listing.language() == null) {
					unnamed.add(page.getFileName() + ":" + listing.line());
				}
			}
		}
		assertThat(unnamed).as("listings without [source,<language>]").isEmpty();
	}

	@Test
	void everyIncludeOfTheGuideNamesAnExistingFileAndTag() throws IOException {
		Map<String, Path> examples = exampleDirectories();
		List<String> broken = new ArrayList<>();
		for (Path page : pages()) {
			List<String> lines = Files.readAllLines(page);
			for (int number = 0; number < lines.size(); number++) {
				Matcher include = INCLUDE.matcher(lines.get(number));
				if (!include.matches()) {
					continue;
				}
				String where = page.getFileName() + ":" + (number + 1) + " ";
				Path directory = examples.get(include.group(1));
				Path source = (directory != null) ? directory.resolve(include.group(2)) : null;
				if (source == null || !Files.isRegularFile(source)) {
					broken.add(where + include.group(1) + "/" + include.group(2) + " is no file");
					continue;
				}
				Matcher tags = TAG.matcher(include.group(3));
				if (tags.find()) {
					String text = Files.readString(source);
					for (String tag : tags.group(1).split(";")) {
						if (!text.contains("tag::" + tag + "[]") || !text.contains("end::" + tag + "[]")) {
							broken.add(where + source + " has no region tagged " + tag);
						}
					}
				}
			}
		}
		assertThat(broken).isEmpty();
	}

	@Test
	void everyCodeSampleOfTheReadmeIsATestedSource() throws IOException {
		List<String> samples = testSourceTexts();
		String readme = Files.readString(ROOT.resolve("README.md"));
		Matcher block = MARKDOWN_CODE.matcher(readme);
		List<String> pasted = new ArrayList<>();
		int checked = 0;
		while (block.find()) {
			if (!CODE_LANGUAGES.contains(block.group(1))) {
				continue;
			}
			checked++;
			String code = block.group(2).strip();
			if (!samples.contains(code)) {
				pasted.add("```" + block.group(1) + " at character " + block.start() + ": "
						+ code.lines().findFirst().orElse(""));
			}
		}
		assertThat(pasted).as("README samples that are neither a test source nor a tagged region of one").isEmpty();
		assertThat(checked).as("README's Java and YAML samples").isPositive();
	}

	private static List<Path> pages() throws IOException {
		try (Stream<Path> pages = Files.list(PAGES)) {
			return pages.filter((page) -> page.toString().endsWith(".adoc")).sorted().toList();
		}
	}

	/**
	 * The delimited listings ({@code ----}) of a page, with the language of their block
	 * attribute line ({@code null} when they have none).
	 */
	private static List<Listing> listings(Path page) throws IOException {
		List<String> lines = Files.readAllLines(page);
		List<Listing> listings = new ArrayList<>();
		for (int number = 0; number < lines.size(); number++) {
			if (!lines.get(number).equals("----")) {
				continue;
			}
			Matcher attributes = (number > 0) ? SOURCE_ATTRIBUTES.matcher(lines.get(number - 1)) : null;
			String language = null;
			if (attributes != null && attributes.matches()) {
				language = (attributes.group(2) != null && !attributes.group(2).isEmpty()) ? attributes.group(2)
						: (attributes.group(1) != null) ? "java" : null;
			}
			int end = lines.subList(number + 1, lines.size()).indexOf("----");
			assertThat(end).as("%s:%s listing closed", page.getFileName(), number + 1).isNotNegative();
			listings.add(new Listing(number + 1, language, lines.subList(number + 1, number + 1 + end)));
			number += end + 1;
		}
		return listings;
	}

	/**
	 * The directories that the guide's component descriptor has the collector add as
	 * examples, by the name a page includes them under ({@code example$<name>/...}).
	 */
	private static Map<String, Path> exampleDirectories() throws IOException {
		Map<String, Path> directories = new LinkedHashMap<>();
		String directory = null;
		for (String line : Files.readAllLines(ROOT.resolve(Path.of("docs", "antora.yml")))) {
			String entry = line.strip();
			if (entry.startsWith("- dir: ")) {
				directory = entry.substring("- dir: ".length());
			}
			else if (entry.startsWith("into: modules/ROOT/examples/") && directory != null) {
				directories.put(entry.substring("into: modules/ROOT/examples/".length()), ROOT.resolve(directory));
			}
		}
		assertThat(directories).as("the collector's scans in docs/antora.yml").isNotEmpty();
		return directories;
	}

	/**
	 * Every test source and test resource of the modules, whole and as each of its tagged
	 * regions, stripped of surrounding blank space.
	 */
	private static List<String> testSourceTexts() throws IOException {
		List<String> texts = new ArrayList<>();
		try (Stream<Path> modules = Files.list(ROOT)) {
			for (Path module : modules.filter((module) -> Files.isDirectory(module.resolve(Path.of("src", "test"))))
				.toList()) {
				try (Stream<Path> files = Files.walk(module.resolve(Path.of("src", "test")))) {
					files.filter(Files::isRegularFile)
						.filter((file) -> file.toString().matches(".*\\.(java|kt|ya?ml|properties)$"))
						.forEach((file) -> addTexts(file, texts));
				}
			}
		}
		return texts;
	}

	private static void addTexts(Path file, List<String> texts) {
		try {
			String text = Files.readString(file);
			texts.add(text.strip());
			Matcher start = Pattern.compile("(?m)^.*tag::([\\w-]+)\\[\\].*\\n").matcher(text);
			while (start.find()) {
				int end = text.indexOf("end::" + start.group(1) + "[]", start.end());
				if (end >= 0) {
					String region = text.substring(start.end(), text.lastIndexOf('\n', end) + 1);
					texts.add(TAG_DIRECTIVE.matcher(region).replaceAll("").strip());
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Listing(int line, String language, List<String> lines) {
	}

}
