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

/**
 * Storage shared by every worker process, which refuses writes carrying a fencing token
 * lower than the highest it has seen for the key: an HTTP server on 127.0.0.1 in the test
 * JVM keeping one counter per key.
 * <p>
 * {@code GET /read?key=K} answers the key's value (0 when never written);
 * {@code POST /write?key=K&token=T&value=V} answers {@code ACCEPTED} or {@code REJECTED}.
 * The store logs every write it decides, in the order it decides them: the authoritative
 * record for the checker.
 */
final class FencedStore implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	private final Map<String, Long> highestTokens = new HashMap<>();

	private final Map<String, Long> values = new LinkedHashMap<>();

	private final List<StoreWrite> log = new ArrayList<>();

	FencedStore() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
		this.server.createContext("/read",
				(exchange) -> answer(exchange, Long.toString(read(parameter(exchange, "key")))));
		this.server.createContext("/write",
				(exchange) -> answer(exchange,
						write(parameter(exchange, "key"), Long.parseLong(parameter(exchange, "token")),
								Long.parseLong(parameter(exchange, "value"))) ? "ACCEPTED" : "REJECTED"));
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	synchronized long read(String key) {
		return this.values.getOrDefault(key, 0L);
	}

	synchronized boolean write(String key, long token, long value) {
		boolean accepted = token >= this.highestTokens.getOrDefault(key, Long.MIN_VALUE);
		if (accepted) {
			this.highestTokens.put(key, token);
			this.values.put(key, value);
		}
		this.log.add(new StoreWrite(HistoryEvent.nowMicros(), key, token, value, accepted));
		return accepted;
	}

	/**
	 * The writes the store decided so far, in order.
	 * @return the store's log
	 */
	synchronized List<StoreWrite> log() {
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
			Files.write(file, log().stream().map(StoreWrite::format).toList(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String parameter(HttpExchange exchange, String name) {
		for (String pair : exchange.getRequestURI().getRawQuery().split("&")) {
			int equals = pair.indexOf('=');
			if (pair.substring(0, equals).equals(name)) {
				return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
			}
		}
		throw new IllegalArgumentException("Missing parameter '" + name + "' in " + exchange.getRequestURI());
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
