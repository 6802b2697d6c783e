package dev.zklock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A worker's connection to the {@link FencedStore} of the test JVM.
 */
final class FencedStoreClient {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(TIMEOUT)
		.build();

	private final URI store;

	FencedStoreClient(URI store) {
		this.store = store;
	}

	long read(String key) {
		return Long.parseLong(send(HttpRequest.newBuilder(uri("/read?key=" + encode(key))).GET()));
	}

	/**
	 * Reads the key's value as a holder of its lock: the store first raises the key's
	 * fence to the holder's token, so that no older holder's write is accepted after this
	 * read.
	 * @param key the key
	 * @param token the holder's fencing token
	 * @return the key's value
	 */
	long read(String key, long token) {
		return Long.parseLong(send(HttpRequest.newBuilder(uri("/read?key=" + encode(key) + "&token=" + token)).GET()));
	}

	/**
	 * Asks the store to set the key's value, carrying the writer's fencing token.
	 * @param key the key
	 * @param token the writer's fencing token
	 * @param value the new value
	 * @return whether the store accepted the write
	 */
	boolean write(String key, long token, long value) {
		String answer = send(
				HttpRequest.newBuilder(uri("/write?key=" + encode(key) + "&token=" + token + "&value=" + value))
					.POST(HttpRequest.BodyPublishers.noBody()));
		return answer.equals("ACCEPTED");
	}

	/**
	 * Asks the store for its time.
	 * @return the store's time, in microseconds
	 */
	long now() {
		return Long.parseLong(send(HttpRequest.newBuilder(uri("/now")).GET()));
	}

	/**
	 * Has the store record an event of this worker.
	 * @param worker the worker's name
	 * @param event the event, whose time is ignored
	 * @return the store's stamp of the event
	 */
	long record(String worker, HistoryEvent event) {
		return Long.parseLong(send(HttpRequest
			.newBuilder(uri("/record?worker=" + encode(worker) + "&thread=" + encode(event.thread()) + "&type="
					+ event.type() + "&key=" + encode(event.key()) + "&token=" + event.token() + "&observedAfter="
					+ event.observedAfter() + "&detail=" + encode(event.detail())))
			.POST(HttpRequest.BodyPublishers.noBody())));
	}

	private URI uri(String pathAndQuery) {
		return this.store.resolve(pathAndQuery);
	}

	private String send(HttpRequest.Builder request) {
		try {
			return this.client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while talking to the store", ex);
		}
	}

	private static String encode(String key) {
		return URLEncoder.encode(key, StandardCharsets.UTF_8);
	}

}
