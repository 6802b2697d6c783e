package dev.zklock.testsupport.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Deletes the directory trees that the server processes keep their data in.
 */
final class DirectoryTrees {

	private DirectoryTrees() {
	}

	/**
	 * Deletes a directory and everything under it; nothing if it does not exist.
	 * @param directory the directory
	 * @throws IOException if a file cannot be deleted
	 */
	static void delete(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.deleteIfExists(file);
			}
		}
	}

}
