package dev.zklock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.redisson.Redisson;

import org.springframework.integration.jdbc.lock.JdbcLockRegistry;

/**
 * The fault table of issue 28, {@code target/peer-faults.md}: a Markdown table appended
 * to by every run of {@link PeerFaultTests}, one row per run (library, fault, what
 * happened, measured time), under a heading with the date and the versions.
 */
final class PeerFaultTable {

	private static final Path FILE = Path.of("target", "peer-faults.md");

	private boolean headed;

	/**
	 * Appends a row, first the run's heading if this table has none yet.
	 * @param library the lock
	 * @param fault the fault
	 * @param happened what happened
	 * @param measured the measured time
	 */
	synchronized void row(String library, String fault, String happened, Duration measured) {
		try {
			Files.createDirectories(FILE.getParent());
			if (!this.headed) {
				Files.write(FILE,
						List.of("", "## Run of " + OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS), "", versions(),
								"", "| library | fault | what happened | measured |", "|---|---|---|---|"),
						StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
				this.headed = true;
			}
			Files.write(FILE,
					List.of("| " + library + " | " + fault + " | " + happened.replace("|", "\\|") + " | "
							+ String.format("%.1f s", measured.toMillis() / 1000.0) + " |"),
					StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write " + FILE, ex);
		}
	}

	private static String versions() {
		return "zklock " + System.getProperty("zklock.version", "?") + " (Curator " + version(CuratorFramework.class)
				+ ", ZooKeeper " + version(ZooKeeper.class) + "), Redisson " + version(Redisson.class)
				+ " on Redis 7 (Debian's redis-server), Spring Integration JDBC " + version(JdbcLockRegistry.class)
				+ " and ShedLock 7.2.0 (JdbcTemplateLockProvider, lockAtMostFor "
				+ PeerLockHolder.SHEDLOCK_LOCK_AT_MOST_FOR.toSeconds() + " s) on PostgreSQL 17 (zonky binaries) "
				+ "with its shipped durability; Java " + System.getProperty("java.version");
	}

	private static String version(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return (version != null) ? version : "?";
	}

}
