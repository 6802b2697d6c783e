package dev.zklock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriUtils;

/**
 * A running instance of the sample application, on a free port, with an HTTP client for
 * it.
 */
final class SampleInstance implements AutoCloseable {

	static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {
	};

	private final ConfigurableApplicationContext context;

	private final String baseUrl;

	private final RestClient client;

	private SampleInstance(ConfigurableApplicationContext context) {
		this.context = context;
		this.baseUrl = "http://127.0.0.1:" + context.getEnvironment().getRequiredProperty("local.server.port");
		HttpClient httpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		this.client = RestClient.builder()
			.baseUrl(this.baseUrl)
			.requestFactory(new JdkClientHttpRequestFactory(httpClient))
			.build();
	}

	/**
	 * Starts an instance. Arguments are passed as command-line arguments, so that they
	 * override {@code application.yml}.
	 * @param sources configuration classes in addition to {@link SampleApplication}
	 * @param args command-line arguments, such as {@code --server.port=0}
	 * @return the running instance
	 */
	static SampleInstance start(List<Class<?>> sources, String... args) {
		SpringApplicationBuilder builder = new SpringApplicationBuilder(SampleApplication.class)
			.sources(sources.toArray(Class<?>[]::new))
			.bannerMode(Banner.Mode.OFF);
		return new SampleInstance(builder.run(args));
	}

	/**
	 * Starts an instance as its {@code application.yml} configures it, on a free port,
	 * with its embedded ZooKeeper server on a free port, keeping the server's data and
	 * the database in a directory.
	 * @param data the directory of the ZooKeeper data and the database
	 * @return the running instance
	 */
	static SampleInstance startWithDataIn(Path data) {
		return start(List.of(), "--server.port=0", "--distributed-lock.zookeeper.embedded.port=0",
				"--distributed-lock.zookeeper.embedded.data-directory=" + data.resolve("zookeeper"),
				"--spring.datasource.url=jdbc:h2:file:" + data.resolve("orders") + ";AUTO_SERVER=TRUE");
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	RestClient client() {
		return this.client;
	}

	/**
	 * Places one order through {@code POST /orders}.
	 * @return the order number
	 */
	String placeOrder() {
		return this.client.post().uri("/orders").retrieve().requiredBody(Order.class).orderNumber();
	}

	/**
	 * Places orders through {@code POST /orders/batch}.
	 * @param count how many orders
	 * @return their order numbers
	 */
	List<String> placeOrders(int count) {
		return postJson("/orders/batch", Map.of("count", count)).retrieve()
			.requiredBody(OrderController.Batch.class)
			.orderNumbers();
	}

	/**
	 * Gets a JSON object.
	 * @param uri the path, with its query
	 * @return the object
	 */
	Map<String, Object> get(String uri) {
		return this.client.get().uri(uri).retrieve().requiredBody(JSON_OBJECT);
	}

	/**
	 * Gets a key's lock queue from {@code /actuator/locks/{key}}, the key's {@code /}
	 * kept as they are and every other character with a meaning in a URI URL-encoded.
	 * @param key the lock key
	 * @return the key's queue
	 */
	Map<String, Object> lockQueue(String key) {
		return this.client.get().uri(URI.create(lockQueueUrl(key))).retrieve().requiredBody(JSON_OBJECT);
	}

	/**
	 * The URL of a key's lock queue: {@code /actuator/locks/} followed by the key, its
	 * {@code /} kept as they are and every other character with a meaning in a URI
	 * URL-encoded.
	 * @param key the lock key
	 * @return the URL
	 */
	String lockQueueUrl(String key) {
		return this.baseUrl + "/actuator/locks/"
				+ Arrays.stream(key.split("/", -1))
					.map((segment) -> UriUtils.encode(segment, StandardCharsets.UTF_8))
					.collect(Collectors.joining("/"));
	}

	String baseUrl() {
		return this.baseUrl;
	}

	/**
	 * Posts JSON and returns the response whatever its status.
	 * @param path the path
	 * @param body the JSON body
	 * @return the response with its body as a map
	 */
	ResponseEntity<Map<String, Object>> post(String path, String body) {
		return postJson(path, body).retrieve().onStatus(HttpStatusCode::isError, (request, response) -> {
		}).toEntity(JSON_OBJECT);
	}

	private RestClient.RequestBodySpec postJson(String path, Object body) {
		return this.client.post().uri(path).contentType(MediaType.APPLICATION_JSON).body(body);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
