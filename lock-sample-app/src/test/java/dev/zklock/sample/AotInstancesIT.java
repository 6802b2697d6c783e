package dev.zklock.sample;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample application processed ahead of time ({@code mvn -Paot verify}) and run in
 * AOT mode on the JVM: two instances of the packaged jar, each in a JVM of its own, share
 * one ZooKeeper server and one H2 database, and are checked through HTTP only (and the
 * database the order summary writes): the orders, the locks, and the nightly order
 * summary run every two seconds as a clustered job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AotInstancesIT {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	static Path data;

	private static TestingServer zooKeeper;

	private static SampleProcess first;

	private static SampleProcess second;

	private static ExecutorService executor;

	@BeforeAll
	static void start() throws Exception {
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
				Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
		zooKeeper = new TestingServer(spec, true);
		Path jar = Path.of(System.getProperty("sample.jar"));
		first = SampleProcess.start(jar, "first", data, zooKeeper.getConnectString(), instanceArguments());
		second = SampleProcess.start(jar, "second", data, zooKeeper.getConnectString(), instanceArguments());
		executor = Executors.newFixedThreadPool(16);
	}

	private static String[] instanceArguments() {
		// The order sequence's row lock is held by the test for a few seconds
		// The nightly order summary runs every two seconds here
		return new String[] { "--spring.datasource.url=" + databaseUrl() + ";LOCK_TIMEOUT=30000",
				"--distributed-lock.wait-time=30s", "--sample.order-summary.cron=*/2 * * * * *" };
	}

	private static String databaseUrl() {
		return "jdbc:h2:file:" + data.resolve("orders") + ";AUTO_SERVER=TRUE";
	}

	@AfterAll
	static void stop() throws Exception {
		if (executor != null) {
			executor.shutdownNow();
		}
		for (SampleProcess instance : new SampleProcess[] { second, first }) {
			if (instance != null) {
				instance.close();
			}
		}
		if (zooKeeper != null) {
			zooKeeper.close();
		}
	}

	@Test
	@Order(1)
	void instancesRunInAotMode() {
		for (SampleProcess instance : List.of(first, second)) {
			assertThat(instance.output()).contains("Starting AOT-processed SampleApplication");
		}
	}

	@Test
	@Order(2)
	void healthIsUpWithZooKeeper() {
		for (SampleProcess instance : List.of(first, second)) {
			assertThat(instance.healthStatus()).isEqualTo("UP");
			assertThat(instance.healthStatus("zookeeper")).isEqualTo("UP");
		}
	}

	@Test
	@Order(3)
	void locksEndpointAnswers() {
		for (SampleProcess instance : List.of(first, second)) {
			assertThat(instance.get("/actuator/locks")).containsEntry("held", List.of())
				.containsEntry("waiting", List.of())
				.containsKey("rootPath");
		}
	}

	@Test
	@Order(4)
	void ordersPlacedAtOnceOnBothInstancesAreNumberedWithoutGapsOrDuplicates() {
		List<CompletableFuture<List<String>>> requests = new ArrayList<>();
		for (SampleProcess instance : List.of(first, second)) {
			for (int i = 0; i < 8; i++) {
				requests.add(async(() -> List.of(instance.placeOrder())));
			}
			requests.add(async(() -> instance.placeOrders(5)));
		}
		List<String> orderNumbers = requests.stream()
			.map((request) -> request.orTimeout(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS).join())
			.flatMap(List::stream)
			.toList();
		assertThat(orderNumbers).hasSize(26).doesNotHaveDuplicates();
		// Grouped by day, in case the test runs across midnight
		Collection<List<Long>> days = orderNumbers.stream()
			.collect(Collectors.groupingBy((orderNumber) -> orderNumber.substring(0, 8),
					Collectors.mapping(AotInstancesIT::sequenceOf, Collectors.toList())))
			.values();
		for (List<Long> sequences : days) {
			long lowest = sequences.stream().mapToLong(Long::longValue).min().orElseThrow();
			assertThat(sequences).containsExactlyInAnyOrderElementsOf(
					LongStream.range(lowest, lowest + sequences.size()).boxed().toList());
		}
	}

	@Test
	@Order(5)
	void lockHeldByTheOtherInstanceIsWaitedFor() throws SQLException {
		first.placeOrder();
		CompletableFuture<List<String>> batch;
		CompletableFuture<String> order;
		try (Connection database = DriverManager.getConnection(databaseUrl(), "sa", "")) {
			// The second instance takes the day's lock, then waits for the row to write
			// it
			database.setAutoCommit(false);
			try (Statement statement = database.createStatement()) {
				statement.executeQuery("SELECT * FROM order_sequence FOR UPDATE").close();
			}
			batch = async(() -> second.placeOrders(3));
			await().atMost(REQUEST_TIMEOUT).until(() -> hasOrderSequenceLock(second, "held"));
			order = async(first::placeOrder);
			await().atMost(REQUEST_TIMEOUT).until(() -> hasOrderSequenceLock(first, "waiting"));
			assertThat(order).isNotDone();
			database.rollback();
		}
		List<String> batchNumbers = batch.orTimeout(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
		String orderNumber = order.orTimeout(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
		assertThat(sequenceOf(orderNumber)).isEqualTo(sequenceOf(batchNumbers.get(2)) + 1);
		assertThat(first.get("/actuator/locks")).containsEntry("waiting", List.of());
	}

	@Test
	@Order(6)
	void noProxyClassIsGeneratedAtRunTime() {
		for (SampleProcess instance : List.of(first, second)) {
			assertThat(instance.loadedClasses()).filteredOn((line) -> line.contains("$$SpringCGLIB$$"))
				.anyMatch((line) -> line.contains(OrderNumberService.class.getName() + "$$SpringCGLIB$$"))
				.allMatch((line) -> line.contains("source: jar:"));
		}
	}

	@Test
	@Order(7)
	void orderSummaryRunsAsAClusteredJobFiredByBothInstances() {
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			Map<?, ?> lastRun = lastSummaryRun(first);
			assertThat(lastRun.get("status")).as("status of the last run").isEqualTo("SUCCEEDED");
			assertThat(lastSummaryRun(second)).as("the record, as the second instance reads it").isEqualTo(lastRun);
			assertThat(summaryFencingTokens()).as("the summary row of the last run")
				.contains(((Number) lastRun.get("fencingToken")).longValue());
		});
		for (SampleProcess instance : List.of(first, second)) {
			assertThat(summaryFirings(instance)).as("firings of the job on an instance").isPositive();
		}
	}

	private static Map<?, ?> lastSummaryRun(SampleClient instance) {
		List<?> jobs = (List<?>) instance.get("/actuator/clusteredjobs").get("jobs");
		assertThat(jobs).singleElement()
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("name", "order-summary")
			.containsEntry("method", OrderSummaryJob.class.getName() + ".summarize()");
		return (((Map<?, ?>) jobs.get(0)).get("lastRun") instanceof Map<?, ?> lastRun) ? lastRun : Map.of();
	}

	private static List<Long> summaryFencingTokens() throws SQLException {
		List<Long> tokens = new ArrayList<>();
		try (Connection database = DriverManager.getConnection(databaseUrl(), "sa", "");
				Statement statement = database.createStatement();
				ResultSet rows = statement.executeQuery("SELECT fencing_token FROM order_summary")) {
			while (rows.next()) {
				tokens.add(rows.getLong(1));
			}
		}
		return tokens;
	}

	private static double summaryFirings(SampleClient instance) {
		Map<String, Object> firings = instance
			.get("/actuator/metrics/distributed.lock.job.firings?tag=job:order-summary");
		return ((List<?>) firings.get("measurements")).stream()
			.map((measurement) -> (Map<?, ?>) measurement)
			.filter((measurement) -> "COUNT".equals(measurement.get("statistic")))
			.mapToDouble((measurement) -> ((Number) measurement.get("value")).doubleValue())
			.sum();
	}

	private static boolean hasOrderSequenceLock(SampleClient instance, String state) {
		return instance.get("/actuator/locks").get(state) instanceof List<?> locks && locks.stream()
			.anyMatch((lock) -> lock instanceof Map<?, ?> activity
					&& String.valueOf(activity.get("key")).startsWith("order-sequence:"));
	}

	private static <T> CompletableFuture<T> async(Supplier<T> request) {
		return CompletableFuture.supplyAsync(request, executor);
	}

	private static long sequenceOf(String orderNumber) {
		return Long.parseLong(orderNumber.substring(orderNumber.indexOf('-') + 1));
	}

}
