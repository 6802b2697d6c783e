package dev.zklock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A counter in a file, incremented with a non-atomic read, pause and write: correct only
 * when every incrementing thread and process holds the same lock.
 */
record CounterFile(Path path) {

	int value() throws IOException {
		return Files.exists(this.path) ? Integer.parseInt(Files.readString(this.path).trim()) : 0;
	}

	void increment() throws IOException, InterruptedException {
		int read = value();
		Thread.sleep(2);
		Files.writeString(this.path, Integer.toString(read + 1));
	}

}
