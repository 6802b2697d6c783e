package dev.zklock.kotlin

import dev.zklock.DistributedLock
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.withContext

/**
 * A record in a file shared by processes: each locked entry writes a `begin` line, suspends
 * and moves to another thread, then writes its `end` line. Entries of one key never
 * overlap, so every `begin` is followed by its own `end`.
 *
 * @property file the shared file
 * @property writer who writes, in each line
 */
open class SharedRecord(private val file: Path, private val writer: String) {

	@DistributedLock(key = "'shared-record'", waitTime = "60s")
	open suspend fun append(entry: Int) {
		write("begin $writer $entry")
		delay(5)
		withContext(Dispatchers.IO) {
			write("end $writer $entry")
		}
	}

	/** Appends [entries] entries from two coroutines at once. */
	suspend fun appendAll(entries: Int) = coroutineScope {
		(0 until entries).map { entry -> async(Dispatchers.Default) { append(entry) } }.awaitAll()
	}

	private fun write(line: String) {
		// One write of one line, appended: lines of two processes never mix
		Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND)
	}

}
