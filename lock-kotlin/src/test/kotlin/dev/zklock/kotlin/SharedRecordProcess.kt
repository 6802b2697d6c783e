package dev.zklock.kotlin

import java.nio.file.Path
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat

/**
 * The other process of [SharedRecordProcessTests]: an application that locks through the
 * server at the first argument and appends to the record at the second, as the writer named
 * by the third, as many entries as the fourth says. It prints `READY` once its context has
 * started, starts appending when it reads `go`, and prints `DONE` when it has finished.
 */
object SharedRecordProcess {

	@JvmStatic
	fun main(args: Array<String>) {
		val (connectString, file, writer, entries) = args
		lockApplications(connectString)
			.withBean(SharedRecord::class.java, { SharedRecord(Path.of(file), writer) })
			.run { context ->
				assertThat(context).hasNotFailed()
				println("READY")
				check(readlnOrNull() == "go") { "expected 'go'" }
				runBlocking { context.getBean(SharedRecord::class.java).appendAll(entries.toInt()) }
				println("DONE")
			}
	}

}
