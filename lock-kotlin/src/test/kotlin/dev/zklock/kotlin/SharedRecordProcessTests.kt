package dev.zklock.kotlin

import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.testsupport.process.JavaCommand
import dev.zklock.testsupport.process.JvmProcess
import dev.zklock.testsupport.process.OutputLines
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.junit.jupiter.api.io.TempDir

/**
 * Locked suspend functions of two processes on one key: a second JVM and this one append
 * to one [SharedRecord] at the same time, and the record shows every entry whole.
 */
class SharedRecordProcessTests {

	@RegisterExtension
	@JvmField
	val zookeeper = ZooKeeperTestServer()

	@Test
	fun `suspend functions of two processes never overlap on one key`(@TempDir directory: Path) {
		val file = directory.resolve("record")
		val lines = LinkedBlockingQueue<String>()
		val command = JavaCommand.mainClass(SharedRecordProcess::class.java.name)
			.jvmOptions("-Dlogging.level.root=WARN")
			.arguments(zookeeper.connectString(), file.toString(), "other", ENTRIES.toString())
		JvmProcess.start("other writer", command, object : OutputLines {
			override fun line(line: String) {
				lines.add(line)
			}

			override fun ended() {
				lines.add(ENDED)
			}
		}).use { other ->
			lockApplications(zookeeper)
				.withBean(SharedRecord::class.java, { SharedRecord(file, "this") })
				.run { context ->
					awaitLine(lines, "READY")
					other.send("go")
					runBlocking { context.getBean(SharedRecord::class.java).appendAll(ENTRIES) }
					awaitLine(lines, "DONE")
				}
			assertThat(other.awaitExit(Duration.ofSeconds(30))).isTrue()
			assertThat(other.exitValue()).isZero()
		}
		val record = Files.readAllLines(file)
		assertThat(record).hasSize(4 * ENTRIES)
		record.chunked(2).forEach { (begin, end) ->
			assertThat(end).`as`("the line after '%s'", begin).isEqualTo(begin.replace("begin", "end"))
		}
		assertThat(record.filter { it.startsWith("begin other") }).hasSize(ENTRIES)
		assertThat(record.filter { it.startsWith("begin this") }).hasSize(ENTRIES)
	}

	private fun awaitLine(lines: LinkedBlockingQueue<String>, expected: String) {
		val seen = mutableListOf<String>()
		while (true) {
			val line = lines.poll(60, TimeUnit.SECONDS)
			check(line != null && line != ENDED) { "The other process did not print '$expected': $seen" }
			if (line == expected) {
				return
			}
			seen.add(line)
		}
	}

	private companion object {

		const val ENTRIES = 10

		const val ENDED = "\u0000ended"

	}

}
