package dev.zklock.sample;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import dev.zklock.StaleFencingTokenException;
import dev.zklock.jdbc.JdbcLockFence;
import dev.zklock.scheduling.JobRecord;
import dev.zklock.scheduling.JobRecords;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Two instances of the sample application sharing one ZooKeeper server and one H2
 * database file place orders concurrently: the order numbers stay unique and gap-free,
 * and the lock fence refuses the transaction of a holder older than the last one; the
 * nightly order summary, run every second here, is written by one instance at a time.
 */
class TwoInstancesTests {

	private static final LocalDate DAY = LocalDate.of(2026, 11, 22);

	private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T09:30:00Z"), ZoneOffset.UTC);

	private static TestingServer zooKeeper;

	@TempDir
	Path data;

	private SampleInstance first;

	private SampleInstance second;

	private ExecutorService executor;

	@BeforeAll
	static void startZooKeeper() throws Exception {
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
				Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
		zooKeeper = new TestingServer(spec, true);
	}

	@AfterAll
	static void stopZooKeeper() throws IOException {
		if (zooKeeper != null) {
			zooKeeper.close();
		}
	}

	@BeforeEach
	void startInstances() {
		this.first = startInstance();
		this.second = startInstance();
		this.executor = Executors.newFixedThreadPool(32);
	}

	private SampleInstance startInstance() {
		return SampleInstance.start(List.of(FixedClock.class), "--server.port=0",
				"--distributed-lock.zookeeper.embedded.enabled=false",
				"--distributed-lock.zookeeper.connect-string=" + zooKeeper.getConnectString(),
				"--distributed-lock.wait-time=30s", "--sample.order-summary.cron=* * * * * *",
				"--spring.datasource.url=jdbc:h2:file:" + this.data.resolve("orders") + ";AUTO_SERVER=TRUE");
	}

	@AfterEach
	void stopInstances() {
		if (this.executor != null) {
			this.executor.shutdownNow();
		}
		for (SampleInstance instance : new SampleInstance[] { this.second, this.first }) {
			if (instance != null) {
				instance.close();
			}
		}
	}

	@Test
	void singleOrdersAreUniqueAndGapFree() throws Exception {
		List<Callable<List<String>>> requests = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			requests.add(() -> List.of(this.first.placeOrder()));
			requests.add(() -> List.of(this.second.placeOrder()));
		}
		List<String> orderNumbers = runConcurrently(requests).stream().flatMap(List::stream).toList();
		assertThat(orderNumbers).hasSize(32).doesNotHaveDuplicates().allMatch((n) -> n.startsWith("20261122-"));
		assertThat(sequencesOf(orderNumbers)).containsExactlyInAnyOrderElementsOf(range(1, 32));
		assertThat(storedOrderNumbers()).containsExactlyInAnyOrderElementsOf(orderNumbers);
	}

	@Test
	void batchesAndSingleOrdersAreUniqueAndGapFree() throws Exception {
		List<Callable<List<String>>> requests = new ArrayList<>();
		for (SampleInstance instance : List.of(this.first, this.second)) {
			for (int i = 0; i < 8; i++) {
				requests.add(() -> List.of(instance.placeOrder()));
				requests.add(() -> instance.placeOrders(3));
			}
		}
		List<List<String>> placed = runConcurrently(requests);
		for (List<String> batch : placed) {
			long firstOfBatch = sequenceOf(batch.get(0));
			assertThat(sequencesOf(batch)).containsExactlyElementsOf(range(firstOfBatch, batch.size()));
		}
		List<String> orderNumbers = placed.stream().flatMap(List::stream).toList();
		assertThat(orderNumbers).hasSize(64).doesNotHaveDuplicates();
		assertThat(sequencesOf(orderNumbers)).containsExactlyInAnyOrderElementsOf(range(1, 64));
		assertThat(storedOrderNumbers()).containsExactlyInAnyOrderElementsOf(orderNumbers);
	}

	@Test
	void transactionOfAnEarlierHolderIsRefusedOnceALaterHolderHasWritten() {
		String key = "order-sequence:" + DAY;
		AcquiredLock earlier = this.first.context()
			.getBean(ZooKeeperLockRegistry.class)
			.acquire(key, Duration.ofSeconds(30));
		earlier.release();
		this.second.placeOrder();
		long newestToken = this.first.context()
			.getBean(JdbcClient.class)
			.sql("SELECT fencing_token FROM zklock_fence")
			.query(Long.class)
			.single();
		JdbcLockFence fence = this.first.context().getBean(JdbcLockFence.class);
		DailySequence sequence = this.first.context().getBean(DailySequence.class);
		TransactionTemplate transaction = this.first.context().getBean(TransactionTemplate.class);
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> transaction.execute((status) -> {
			fence.check(earlier);
			return sequence.reserve(DAY, 1);
		})).satisfies((ex) -> {
			assertThat(ex.getKey()).isEqualTo(key);
			assertThat(ex.getFencingToken()).isEqualTo(earlier.fencingToken());
			assertThat(ex.getNewerFencingToken()).hasValue(newestToken);
		});
		assertThat(this.first.placeOrder()).isEqualTo("20261122-000002");
	}

	private List<List<String>> runConcurrently(List<Callable<List<String>>> requests) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<String>>> responses = new ArrayList<>();
		for (Callable<List<String>> request : requests) {
			responses.add(this.executor.submit(() -> {
				start.await();
				return request.call();
			}));
		}
		start.countDown();
		List<List<String>> results = new ArrayList<>();
		for (Future<List<String>> response : responses) {
			results.add(response.get(30, TimeUnit.SECONDS));
		}
		return results;
	}

	@Test
	void orderSummaryIsWrittenOnceASecondByOneInstanceOrTheOther() {
		JdbcClient jdbc = this.first.context().getBean(JdbcClient.class);
		for (String number : List.of("20261121-000001", "20261121-000002")) {
			jdbc.sql("INSERT INTO orders (order_number, created_at) VALUES (?, ?)")
				.params(number, DAY.minusDays(1).atTime(12, 0).atOffset(ZoneOffset.UTC))
				.update();
		}
		JobRecords records = this.second.context().getBean(JobRecords.class);
		Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			JobRecord lastRun = records.read("order-summary");
			assertThat(lastRun).isNotNull();
			assertThat(lastRun.status()).isEqualTo(JobRecord.Status.SUCCEEDED);
			assertThat(jdbc.sql("SELECT order_count, fencing_token FROM order_summary WHERE order_day = ?")
				.param(DAY.minusDays(1))
				.query((row, number) -> List.of(row.getLong(1), row.getLong(2)))
				.optional()).contains(List.of(2L, lastRun.fencingToken()));
		});
	}

	private List<String> storedOrderNumbers() {
		return this.second.context()
			.getBean(JdbcClient.class)
			.sql("SELECT order_number FROM orders")
			.query(String.class)
			.list();
	}

	private static List<Long> sequencesOf(List<String> orderNumbers) {
		return orderNumbers.stream().map(TwoInstancesTests::sequenceOf).toList();
	}

	private static long sequenceOf(String orderNumber) {
		return Long.parseLong(orderNumber.substring(orderNumber.indexOf('-') + 1));
	}

	private static List<Long> range(long first, long count) {
		return LongStream.range(first, first + count).boxed().toList();
	}

	/**
	 * Fixes the day of every order. Not a {@code @Configuration}, so that component
	 * scanning leaves it to the instances that name it.
	 */
	static class FixedClock {

		@Bean
		@Primary
		Clock fixedClock() {
			return CLOCK;
		}

	}

}
