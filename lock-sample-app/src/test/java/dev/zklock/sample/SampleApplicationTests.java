package dev.zklock.sample;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperServer;
import dev.zklock.interceptor.DistributedLockInterceptor;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aop.framework.Advised;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.web.util.UriUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SampleApplication} as its {@code application.yml} configures it, on
 * its embedded ZooKeeper server.
 */
class SampleApplicationTests {

	@TempDir
	static Path data;

	private static SampleInstance instance;

	@BeforeAll
	static void start() {
		instance = SampleInstance.startWithDataIn(data);
	}

	@AfterAll
	static void stop() {
		if (instance != null) {
			instance.close();
		}
	}

	@Test
	void runsOnTheEmbeddedZooKeeperServer() {
		EmbeddedZooKeeperServer server = instance.context().getBean(EmbeddedZooKeeperServer.class);
		assertThat(server.getConnectString()).startsWith("127.0.0.1:");
		assertThat(data.resolve("zookeeper")).isDirectory();
	}

	@Test
	void lockIsTakenBeforeTheTransactionBegins() {
		Advised orderNumberService = (Advised) instance.context().getBean(OrderNumberService.class);
		assertThat(Arrays.stream(orderNumberService.getAdvisors())
			.<Class<?>>map((advisor) -> advisor.getAdvice().getClass()))
			.containsSubsequence(DistributedLockInterceptor.class, TransactionInterceptor.class);
	}

	@Test
	void healthIsUp() {
		assertThat(instance.healthStatus()).isEqualTo("UP");
		assertThat(instance.healthStatus("zookeeper")).isEqualTo("UP");
	}

	@Test
	void locksEndpointShowsTheLocksOfThisInstance() {
		Map<String, Object> locks = instance.get("/actuator/locks");
		assertThat(locks).containsKeys("rootPath", "held", "waiting");
	}

	@ParameterizedTest
	@ValueSource(strings = { "orders/2026/42", "with space", "50%", "q?x=1&y#z", "semi;colon", "plus+and:colon",
			"ünïcødé/ключ" })
	void locksEndpointShowsTheQueueOfAnyKey(String key) {
		assertQueueShowsTheHolder(key, instance::lockQueue);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/leading", "trailing/", "double//slash", "/", "//", "a/b/" })
	void locksEndpointShowsTheQueueOfAKeyThatAPathCannotCarryThroughTheKeyParameter(String key) {
		assertQueueShowsTheHolder(key, (held) -> instance.client()
			.get()
			.uri(URI
				.create(instance.baseUrl() + "/actuator/locks?key=" + UriUtils.encode(held, StandardCharsets.UTF_8)))
			.retrieve()
			.requiredBody(SampleInstance.JSON_OBJECT));
	}

	private static void assertQueueShowsTheHolder(String key, Function<String, Map<String, Object>> queueOf) {
		AcquiredLock held = instance.context()
			.getBean(ZooKeeperLockRegistry.class)
			.acquire(key, Duration.ofSeconds(10));
		try {
			Map<String, Object> queue = queueOf.apply(key);
			assertThat(queue).containsEntry("key", key);
			assertThat(queue.get("queue")).asInstanceOf(InstanceOfAssertFactories.list(Map.class))
				.singleElement()
				.satisfies((node) -> {
					assertThat(node).containsEntry("holding", true);
					assertThat(((Number) node.get("fencingToken")).longValue()).isEqualTo(held.fencingToken());
				});
		}
		finally {
			held.release();
		}
	}

	@Test
	void metricsEndpointServesTheLockMetricsTaggedWithNameTypeAndOutcome() {
		instance.placeOrder();
		instance.placeOrders(2);
		Map<String, Object> acquisitions = instance.get("/actuator/metrics/distributed.lock.acquisition");
		assertThat(acquisitions).containsEntry("name", "distributed.lock.acquisition");
		Map<Object, Object> tags = assertThat(acquisitions).extractingByKey("availableTags")
			.asInstanceOf(InstanceOfAssertFactories.list(Map.class))
			.actual()
			.stream()
			.collect(Collectors.toMap((tag) -> tag.get("tag"), (tag) -> tag.get("values")));
		assertThat(tags).containsOnlyKeys("name", "type", "outcome", "error");
		assertThat(tags.get("name")).asInstanceOf(InstanceOfAssertFactories.LIST)
			.containsExactlyInAnyOrder("OrderNumberService.placeOrder", "OrderNumberService.placeOrders");
		assertThat(tags.get("type")).asInstanceOf(InstanceOfAssertFactories.LIST).containsExactly("exclusive");
		assertThat(tags.get("outcome")).asInstanceOf(InstanceOfAssertFactories.LIST).containsExactly("acquired");
		Map<String, Object> held = instance
			.get("/actuator/metrics/distributed.lock.hold?tag=name:OrderNumberService.placeOrder&tag=outcome:released");
		assertThat(held).extractingByKey("measurements")
			.asInstanceOf(InstanceOfAssertFactories.list(Map.class))
			.anySatisfy((measurement) -> {
				assertThat(measurement.get("statistic")).isEqualTo("COUNT");
				assertThat((Double) measurement.get("value")).isPositive();
			});
	}

	@Test
	void placedOrderIsCreatedAndCanBeLookedUp() {
		ResponseEntity<Order> placed = instance.client().post().uri("/orders").retrieve().toEntity(Order.class);
		assertThat(placed.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		Order order = placed.getBody();
		assertThat(order).isNotNull();
		assertThat(order.orderNumber()).matches("\\d{8}-\\d{6}");
		assertThat(placed.getHeaders().getLocation()).hasPath("/orders/" + order.orderNumber());
		Order found = instance.client()
			.get()
			.uri("/orders/{orderNumber}", order.orderNumber())
			.retrieve()
			.requiredBody(Order.class);
		assertThat(found).isEqualTo(order);
	}

	@Test
	void unknownOrderIsNotFound() {
		ResponseEntity<Void> response = instance.client()
			.get()
			.uri("/orders/{orderNumber}", "19991231-000001")
			.retrieve()
			.onStatus(HttpStatusCode::isError, (request, clientResponse) -> {
			})
			.toBodilessEntity();
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	@Test
	void batchPlacesOrdersInAscendingOrder() {
		List<String> orderNumbers = instance.placeOrders(3);
		assertThat(orderNumbers).hasSize(3)
			.doesNotHaveDuplicates()
			.isSorted()
			.allMatch((n) -> n.matches("\\d{8}-\\d{6}"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"count\": 0}", "{\"count\": -5}", "{\"count\": 1001}", "{}", "{\"count\": null}",
			"{\"count\": \"many\"}", "not json" })
	void batchWithBadCountIsBadRequest(String body) {
		ResponseEntity<Map<String, Object>> response = instance.post("/orders/batch", body);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
	}

	@Test
	void batchWithCountOutOfRangeExplainsTheLimit() {
		ResponseEntity<Map<String, Object>> response = instance.post("/orders/batch", "{\"count\": 1001}");
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
		assertThat(response.getBody()).containsEntry("detail", "'count' must be a number from 1 to 1000, but was 1001");
	}

}
