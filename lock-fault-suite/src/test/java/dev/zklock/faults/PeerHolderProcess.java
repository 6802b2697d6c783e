package dev.zklock.faults;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.faults.PeerLockHolder.PeerLock;
import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import dev.zklock.testsupport.process.OutputLines;

/**
 * A {@link PeerLockHolder} in its own JVM, seen from the test: its {@code PEER} lines
 * arrive in a queue, stamped with the test JVM's {@link System#nanoTime()} as they
 * arrive, except its {@code FAILED} lines, which are kept apart, and all of its output
 * goes to {@code NAME.log} in the run's directory.
 */
final class PeerHolderProcess implements AutoCloseable {

	private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private final JvmProcess process;

	private volatile long token = -1;

	private PeerHolderProcess(String name, PeerLock library, String address, String key, FencedStore store,
			Path directory) throws IOException {
		BufferedWriter log = Files.newBufferedWriter(directory.resolve(name + ".log"), StandardCharsets.UTF_8,
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
		JavaCommand command = JavaCommand.mainClass(PeerLockHolder.class.getName())
			.jvmOptions("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData")
			.arguments(library.name(), address, key, store.uri().toString());
		this.process = JvmProcess.start("holder " + name, command, new OutputLines() {

			@Override
			public void line(String line) throws IOException {
				if (line.startsWith(PeerLockHolder.PREFIX + "FAILED ")) {
					PeerHolderProcess.this.failures.add(line.substring(PeerLockHolder.PREFIX.length() + 7));
				}
				else if (line.startsWith(PeerLockHolder.PREFIX)) {
					PeerHolderProcess.this.lines
						.add(new Line(line.substring(PeerLockHolder.PREFIX.length()), System.nanoTime()));
				}
				log.write(line);
				log.newLine();
				log.flush();
			}

			@Override
			public void ended() {
				try {
					log.close();
				}
				catch (IOException ex) {
					// The log is incomplete: the lines the test needs are in the queue
				}
			}

		});
	}

	static PeerHolderProcess start(String name, PeerLock library, String address, String key, FencedStore store,
			Path directory) throws IOException {
		return new PeerHolderProcess(name, library, address, key, store, directory);
	}

	/**
	 * Takes the token of a {@code HELD} line, and keeps it as this holder's.
	 * @return the token, or -1 for none
	 */
	long heldToken(Line held) {
		String token = held.rest("HELD");
		this.token = token.equals("-") ? -1 : Long.parseLong(token);
		return this.token;
	}

	/**
	 * The token of the lock the holder took, or -1 for none.
	 */
	long token() {
		return this.token;
	}

	/**
	 * Waits for the holder's next line, which must start with the word.
	 * @throws IllegalStateException if none comes in time, or another comes first
	 */
	Line await(String word, Duration timeout) throws InterruptedException {
		return next(word, timeout)
			.orElseThrow(() -> new IllegalStateException(this + " printed no '" + word + "' line within " + timeout));
	}

	/**
	 * The holder's next line if one comes in time; it must start with the word.
	 */
	Optional<Line> next(String word, Duration timeout) throws InterruptedException {
		Line line = this.lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
		if (line != null && !line.text().startsWith(word)) {
			throw new IllegalStateException(this + " printed '" + line.text() + "', not '" + word + " ...'");
		}
		return Optional.ofNullable(line);
	}

	/**
	 * Sends a command and waits for its answer, the rest of the line after the word.
	 */
	String ask(String command, String word, Duration timeout) throws InterruptedException {
		this.process.send(command);
		return await(word, timeout).rest(word);
	}

	/**
	 * What went wrong while the holder waited for the lock ({@code FAILED} lines: it
	 * tried again after each), summed up: none, or the first and how many.
	 */
	String failures() {
		return this.failures.isEmpty() ? "none" : this.failures.size() + "× (first: " + this.failures.get(0) + ")";
	}

	void send(String command) {
		this.process.send(command);
	}

	void pause() throws IOException, InterruptedException {
		this.process.pause();
	}

	void resume() throws IOException, InterruptedException {
		this.process.resume();
	}

	void kill() {
		this.process.kill();
	}

	@Override
	public void close() {
		this.process.close();
	}

	@Override
	public String toString() {
		return this.process.toString();
	}

	/**
	 * A line of the holder, without its prefix, and when the test received it.
	 */
	record Line(String text, long nanos) {

		String rest(String word) {
			return this.text.substring(word.length()).trim();
		}

	}

}
