package dev.zklock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CONTRIBUTING.md's "How the code is laid out" names files that exist: every type of
 * zklock it names, with its folder or without, is a source file of the core or of the
 * auto-configuration.
 */
class CodeLayoutReadmeTests {

	private static final Pattern TYPE = Pattern.compile("`((?:[a-z]+/)*)([A-Z][A-Za-z]+)(?:\\.[a-z]+\\(\\))?`");

	/** The types of other libraries that the section names. */
	private static final List<String> OTHER_LIBRARIES = List.of("CuratorFramework", "Mono", "Flux");

	private static final List<Path> SOURCES = List.of(Path.of("src", "main", "java", "dev", "zklock"),
			Path.of("..", "lock-spring-boot-autoconfigure", "src", "main", "java", "dev", "zklock"));

	private static List<String> sourceFiles() throws IOException {
		List<String> files = new ArrayList<>();
		for (Path sources : SOURCES) {
			try (Stream<Path> paths = Files.walk(sources)) {
				paths.map((path) -> sources.relativize(path).toString()).forEach(files::add);
			}
		}
		return files;
	}

	@Test
	void everyTypeNamedIsASourceFile() throws IOException {
		String readme = Files.readString(Path.of("..", "CONTRIBUTING.md"));
		int start = readme.indexOf("\n## How the code is laid out\n");
		assertThat(start).as("CONTRIBUTING.md's How the code is laid out section").isNotNegative();
		Matcher types = TYPE.matcher(readme.substring(start, readme.indexOf("\n## ", start + 1)));
		List<String> named = new ArrayList<>();
		while (types.find()) {
			if (!OTHER_LIBRARIES.contains(types.group(2))) {
				named.add(types.group(1) + types.group(2));
			}
		}
		assertThat(named).hasSizeGreaterThan(20)
			.allSatisfy((type) -> assertThat(sourceFiles()).as(type)
				.anyMatch((file) -> file.equals(type + ".java") || file.endsWith("/" + type + ".java")));
	}

}
