package dev.zklock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriUtils;

/**
 * An HTTP client of a running instance of the sample application.
 */
class SampleClient {

	static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {
	};

	private final String baseUrl;

	private final RestClient client;

	/**
	 * Creates a client of the instance that listens on a port of 127.0.0.1.
	 * @param port the instance's HTTP port
	 */
	SampleClient(int port) {
		this.baseUrl = "http://127.0.0.1:" + port;
		HttpClient httpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		this.client = RestClient.builder()
			.baseUrl(this.baseUrl)
			.requestFactory(new JdkClientHttpRequestFactory(httpClient))
			.build();
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
	 * The overall status that {@code /actuator/health} reports.
	 * @return the status, such as {@code UP}
	 */
	@Nullable Object healthStatus() {
		return get("/actuator/health").get("status");
	}

	/**
	 * The status of one component that {@code /actuator/health} reports.
	 * @param component the component, such as {@code zookeeper}
	 * @return the component's status, or {@code null} if there is no such component
	 */
	@Nullable Object healthStatus(String component) {
		return (get("/actuator/health").get("components") instanceof Map<?, ?> components
				&& components.get(component) instanceof Map<?, ?> health) ? health.get("status") : null;
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

}
