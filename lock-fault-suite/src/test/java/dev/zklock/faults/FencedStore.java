package dev.zklock.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * Storage shared by every worker process, which refuses writes carrying a fencing token
 * lower than the highest it has seen for the key: an HTTP server on 127.0.0.1 in the test
 * JVM keeping one counter per key. It is also the one clock of the run: it records every
 * worker's history.
 * <p>
 * {@code GET /read?key=K} answers the key's value (0 when never written);
 * {@code GET /read?key=K&token=T} answers it to a holder of the key's lock, and raises
 * the key's fence to the holder's token first, as a database fenced by
 * {@code dev.zklock.jdbc.JdbcLockFence} does when its transaction begins: a paused holder
 * that writes after the next holder read is refused, and the next holder's update is not
 * lost; {@code POST /write?key=K&token=T&value=V} answers {@code ACCEPTED} or
 * {@code REJECTED}. The store logs every write and every read under a lock it decides, in
 * the order it decides them: the authoritative record for the checker.
 * <p>
 * {@code GET /now} answers the store's time; {@code POST /record?worker=W&thread=T&...}
 * records a worker's event, stamped with the store's time as it receives it, and answers
 * the stamp. That time is {@link System#nanoTime()} of the test JVM in microseconds,
 * strictly increasing from one stamp to the next: no process's wall clock orders the run,
 * so a step of the system clock can neither hide nor invent an overlap. An event happened
 * before its stamp; a sample ({@link HistoryEvent#observedAfter()}) also after the time
 * the store answered just before it was taken.
 */
final class FencedStore implements AutoCloseable {

	static {
		// The JDK's server writes an answer's headers and body apart: without this, the
		// body waits for the worker's delayed acknowledgement of the headers, 40 ms
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	private final HttpServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(8);

	private final Map<String, Long> highestTokens = new HashMap<>();

	private final Map<String, Long> values = new LinkedHashMap<>();

	private final List<StoreEntry> log = new ArrayList<>();

	private final Map<String, List<HistoryEvent>> histories = new LinkedHashMap<>();

	private final long origin = System.nanoTime();

	private final boolean acceptsStaleTokens;

	private long lastStamp;

	/**
	 * Starts a store that refuses stale tokens.
	 */
	FencedStore() throws IOException {
		this(false);
	}

	/**
	 * Starts a store.
	 * @param acceptsStaleTokens whether the store is broken: it accepts every write, and
	 * logs it accepted, whatever its token (to plant a violation the checker must find)
	 */
	FencedStore(boolean acceptsStaleTokens) throws IOException {
		this.acceptsStaleTokens = acceptsStaleTokens;
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
		this.server.createContext("/read", (exchange) -> answer(exchange, Long.toString(read(exchange))));
		this.server.createContext("/write",
				(exchange) -> answer(exchange,
						write(parameter(exchange, "key"), Long.parseLong(parameter(exchange, "token")),
								Long.parseLong(parameter(exchange, "value"))) ? "ACCEPTED" : "REJECTED"));
		this.server.createContext("/now", (exchange) -> answer(exchange, Long.toString(now())));
		this.server.createContext("/record",
				(exchange) -> answer(exchange, Long.toString(record(parameter(exchange, "worker"),
						new HistoryEvent(0, parameter(exchange, "thread"),
								HistoryEvent.Type.valueOf(parameter(exchange, "type")), parameter(exchange, "key"),
								Long.parseLong(parameter(exchange, "token")), parameter(exchange, "detail"),
								Long.parseLong(parameter(exchange, "observedAfter")))))));
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	private long read(HttpExchange exchange) {
		String key = parameter(exchange, "key");
		String token = optionalParameter(exchange, "token");
		return (token != null) ? read(key, Long.parseLong(token)) : read(key);
	}

	synchronized long read(String key) {
		return this.values.getOrDefault(key, 0L);
	}

	synchronized long read(String key, long token) {
		long value = read(key);
		this.highestTokens.merge(key, token, Math::max);
		this.log.add(StoreEntry.read(now(), key, token, value));
		return value;
	}

	synchronized boolean write(String key, long token, long value) {
		long highest = this.highestTokens.getOrDefault(key, Long.MIN_VALUE);
		boolean accepted = token >= highest || this.acceptsStaleTokens;
		if (accepted) {
			this.highestTokens.put(key, Math.max(token, highest));
			this.values.put(key, value);
		}
		this.log.add(StoreEntry.write(now(), key, token, value, accepted));
		return accepted;
	}

	/**
	 * The store's time: the run's one clock.
	 * @return microseconds since the store started, strictly greater than every time
	 * answered before
	 */
	synchronized long now() {
		this.lastStamp = Math.max(this.lastStamp + 1, (System.nanoTime() - this.origin) / 1_000);
		return this.lastStamp;
	}

	/**
	 * Records an event of a worker, stamped now.
	 * @param worker the worker's name
	 * @param event the event, whose time is ignored
	 * @return the stamp
	 */
	synchronized long record(String worker, HistoryEvent event) {
		long stamp = now();
		this.histories.computeIfAbsent(worker, (name) -> new ArrayList<>()).add(event.at(stamp));
		return stamp;
	}

	/**
	 * What a worker recorded so far.
	 * @param worker the worker's name
	 * @return its history, in the store's order
	 */
	synchronized History history(String worker) {
		return new History(worker, List.copyOf(this.histories.getOrDefault(worker, List.of())));
	}

	/**
	 * The writes the store decided so far, in order.
	 * @return the store's log
	 */
	synchronized List<StoreEntry> log() {
		return List.copyOf(this.log);
	}

	/**
	 * The current value of every key written so far.
	 * @return the values by key
	 */
	synchronized Map<String, Long> values() {
		return Map.copyOf(this.values);
	}

	/**
	 * Writes the log to a file, one write a line, for reading after a failed run.
	 * @param file the file to write
	 */
	void saveLog(Path file) {
		try {
			Files.write(file, log().stream().map(StoreEntry::format).toList(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Writes every worker's history to {@code NAME.history} in a directory, one event a
	 * line, for reading after a failed run.
	 * @param directory the directory
	 */
	void saveHistories(Path directory) {
		Map<String, List<HistoryEvent>> histories;
		synchronized (this) {
			histories = new LinkedHashMap<>(this.histories);
			histories.replaceAll((worker, events) -> List.copyOf(events));
		}
		histories.forEach((worker, events) -> {
			try {
				Files.write(directory.resolve(worker + ".history"), events.stream().map(HistoryEvent::format).toList(),
						StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	private static String parameter(HttpExchange exchange, String name) {
		String value = optionalParameter(exchange, name);
		if (value == null) {
			throw new IllegalArgumentException("Missing parameter '" + name + "' in " + exchange.getRequestURI());
		}
		return value;
	}

	private static @Nullable String optionalParameter(HttpExchange exchange, String name) {
		for (String pair : exchange.getRequestURI().getRawQuery().split("&")) {
			int equals = pair.indexOf('=');
			if (pair.substring(0, equals).equals(name)) {
				return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
			}
		}
		return null;
	}

	private static void answer(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(200, bytes.length);
		try (OutputStream output = exchange.getResponseBody()) {
			output.write(bytes);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
