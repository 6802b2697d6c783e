package dev.zklock.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.json.JsonParserFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Empty, blank, huge, encoded and malformed keys sent to {@code /actuator/locks/{key}}
 * over real HTTP: the answer describes exactly the key it names, or is a bad request
 * (400), never a server error.
 */
class EndpointBadInputTests {

	@TempDir
	static Path data;

	private static SampleInstance instance;

	private static HttpClient http;

	@BeforeAll
	static void start() {
		instance = SampleInstance.startWithDataIn(data);
		http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
	}

	@AfterAll
	static void stop() {
		if (instance != null) {
			instance.close();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "/", "%20", "%09%20%0A", "%20%20%20" })
	void emptyOrBlankKeyIsABadRequestNamingTheKey(String path) throws Exception {
		HttpResponse<String> response = get("/actuator/locks/" + path);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("Lock key must not be empty or blank");
	}

	@ParameterizedTest
	@ValueSource(strings = { "%20", "%09%20%0A" })
	void blankKeyParameterIsABadRequestNamingTheKey(String key) throws Exception {
		HttpResponse<String> response = get("/actuator/locks?key=" + key);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("Lock key must not be empty or blank");
	}

	@ParameterizedTest
	@ValueSource(strings = { "..", ".", "a/../b", "a/./b", "semi;colon", "a.json", "50%", "+", "~", "q?x=1&y#z",
			"\u0001", "a\u007Fb", "\uD83D\uDD12", "\u00E9/e\u0301", "k ", " k", "a/ /b", "%2F", "%00" })
	void weirdKeysAreAnsweredForExactlyThatKey(String key) throws Exception {
		assertQueueIsShownFor(key);
	}

	@ParameterizedTest
	@ValueSource(ints = { 101, 161, 5_000 })
	void longKeysAreAnsweredForExactlyThatKey(int length) throws Exception {
		assertQueueIsShownFor("k".repeat(length));
	}

	@ParameterizedTest
	@ValueSource(strings = { "a%2Fb", "a%00b", "a%5Cb", "%C3%28", "%ED%A0%80" })
	void keysTheServerCannotDecodeAreABadRequest(String path) throws Exception {
		assertThat(get("/actuator/locks/" + path).statusCode()).isEqualTo(400);
	}

	@ParameterizedTest
	@ValueSource(strings = { "%", "%zz", "a%2", "%%41" })
	void malformedPercentEncodingIsABadRequest(String path) throws Exception {
		assertThat(rawStatus("/actuator/locks/" + path)).isEqualTo(400);
	}

	@ParameterizedTest
	@ValueSource(ints = { 16 * 1024, 100 * 1024 })
	void keysLongerThanTheServerTakesInARequestLineAreABadRequest(int length) throws Exception {
		assertThat(get("/actuator/locks/" + "k".repeat(length)).statusCode()).isEqualTo(400);
	}

	@ParameterizedTest
	@CsvSource({ "a/,a", "a//b,a/b", "/a,a", "'a;x=1',a" })
	void keysAUrlCannotCarryAreAnsweredNamingTheKeyShown(String path, String shown) throws Exception {
		HttpResponse<String> response = get("/actuator/locks/" + path);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(json(response)).containsEntry("key", shown);
	}

	private void assertQueueIsShownFor(String key) throws Exception {
		ZooKeeperLockRegistry registry = instance.context().getBean(ZooKeeperLockRegistry.class);
		AcquiredLock held = registry.acquire(key, Duration.ofSeconds(10));
		try {
			HttpResponse<String> response = send(URI.create(instance.lockQueueUrl(key)));
			assertThat(response.statusCode()).isEqualTo(200);
			Map<String, Object> queue = json(response);
			assertThat(queue).containsEntry("key", key).containsEntry("path", registry.pathOf(key));
			assertThat(queue.get("queue")).asInstanceOf(InstanceOfAssertFactories.LIST)
				.singleElement()
				.satisfies((node) -> {
					Map<?, ?> only = (Map<?, ?>) node;
					assertThat(only.get("holding")).isEqualTo(true);
					assertThat(((Number) only.get("fencingToken")).longValue()).isEqualTo(held.fencingToken());
				});
		}
		finally {
			held.release();
		}
	}

	private static HttpResponse<String> get(String path) throws Exception {
		return send(URI.create(instance.baseUrl() + path));
	}

	private static HttpResponse<String> send(URI uri) throws Exception {
		return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static Map<String, Object> json(HttpResponse<String> response) {
		return JsonParserFactory.getJsonParser().parseMap(response.body());
	}

	/**
	 * The status of a request whose path no URI class accepts, sent as it is.
	 */
	private static int rawStatus(String path) throws Exception {
		URI base = URI.create(instance.baseUrl());
		try (Socket socket = new Socket(base.getHost(), base.getPort())) {
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
			String statusLine = in.readLine();
			assertThat(statusLine).startsWith("HTTP/1.1 ");
			return Integer.parseInt(statusLine.split(" ")[1]);
		}
	}

}
