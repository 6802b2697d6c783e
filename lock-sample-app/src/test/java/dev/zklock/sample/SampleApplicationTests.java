package dev.zklock.sample;

import java.nio.file.Path;
import java.util.Map;

import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SampleApplication} as {@code application.yml} configures it: on its
 * embedded ZooKeeper server.
 */
class SampleApplicationTests {

	@TempDir
	static Path data;

	private static ConfigurableApplicationContext context;

	private static RestClient client;

	@BeforeAll
	static void start() {
		context = new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--distributed-lock.zookeeper.embedded.port=0",
				"--distributed-lock.zookeeper.embedded.data-directory=" + data.resolve("zookeeper"),
				"--spring.datasource.url=jdbc:h2:file:" + data.resolve("orders") + ";AUTO_SERVER=TRUE");
		client = TestClients.restClient(context);
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void connectsToTheEmbeddedZooKeeperServer() {
		EmbeddedZooKeeperServer server = context.getBean(EmbeddedZooKeeperServer.class);
		assertThat(server.getConnectString()).startsWith("127.0.0.1:").isNotEqualTo("127.0.0.1:2181");
		assertThat(context.getEnvironment().getProperty("distributed-lock.zookeeper.embedded.enabled"))
			.isEqualTo("true");
	}

	@Test
	void healthIsUp() {
		Map<?, ?> health = client.get().uri("/actuator/health").retrieve().body(Map.class);
		assertThat(health).containsEntry("status", "UP");
	}

	@Test
	void placedOrderCanBeLookedUp() {
		ResponseEntity<Order> placed = client.post().uri("/orders").retrieve().toEntity(Order.class);
		assertThat(placed.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		Order order = placed.getBody();
		assertThat(order).isNotNull();
		assertThat(order.orderNumber()).matches("\\d{8}-\\d{6}");
		assertThat(placed.getHeaders().getLocation()).hasPath("/orders/" + order.orderNumber());
		Order found = client.get().uri("/orders/{orderNumber}", order.orderNumber()).retrieve().body(Order.class);
		assertThat(found).isEqualTo(order);
	}

	@Test
	void unknownOrderIsNotFound() {
		HttpStatus status = exchangeStatus(client.get().uri("/orders/{orderNumber}", "19991231-000001"));
		assertThat(status).isEqualTo(HttpStatus.NOT_FOUND);
	}

	@Test
	void batchPlacesConsecutiveOrders() {
		OrderController.Batch batch = client.post()
			.uri("/orders/batch")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("count", 3))
			.retrieve()
			.body(OrderController.Batch.class);
		assertThat(batch).isNotNull();
		assertThat(TestClients.sequencesOf(batch.orderNumbers())).hasSize(3)
			.satisfies((sequences) -> assertThat(sequences.get(2) - sequences.get(0)).isEqualTo(2));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"count\": 0}", "{\"count\": 1001}", "{\"count\": -5}", "{}", "{\"count\": \"many\"}" })
	void batchWithBadCountIsBadRequest(String body) {
		ResponseEntity<String> response = client.post()
			.uri("/orders/batch")
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange((request, clientResponse) -> ResponseEntity.status(clientResponse.getStatusCode())
				.body(clientResponse.bodyTo(String.class)), false);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
	}

	@Test
	void batchWithCountOutOfRangeExplainsTheLimit() {
		ResponseEntity<Map> response = client.post()
			.uri("/orders/batch")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("count", 1001))
			.exchange((request, clientResponse) -> ResponseEntity.status(clientResponse.getStatusCode())
				.body(clientResponse.bodyTo(Map.class)), false);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(response.getBody()).containsEntry("detail", "'count' must be a number from 1 to 1000, but was 1001");
	}

	private static HttpStatus exchangeStatus(RestClient.RequestHeadersSpec<?> request) {
		return request.exchange((req, response) -> HttpStatus.valueOf(response.getStatusCode().value()), false);
	}

}
