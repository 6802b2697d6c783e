package dev.zklock.sample;

import java.time.Clock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A web application that hands out order numbers such as {@code 20261122-000042}: the
 * day, then a per-day sequence kept in a relational database that several instances
 * share.
 * <p>
 * The sequence is advanced with a plain read-then-write (select the last value, then
 * update it), which is only correct while one instance at a time does it. A distributed
 * lock on ZooKeeper, keyed by the day, makes it so: {@link OrderNumberService} takes the
 * lock declaratively with {@link dev.zklock.DistributedLock @DistributedLock} for single
 * orders ({@code POST /orders}) and programmatically with {@link dev.zklock.LockTemplate}
 * for batches ({@code POST /orders/batch}). The lock is held around the transaction:
 * acquired before it begins and released after it commits, so the next holder reads the
 * committed value. Every transaction also checks the lock's fencing token first, with
 * zklock's {@link dev.zklock.jdbc.JdbcLockFence}, which refuses a token older than the
 * last one and so rolls back the transaction of an instance that lost its lock without
 * noticing (a long pause, a network partition): it cannot corrupt the sequence.
 * <p>
 * Once a night, one of the instances writes how many orders the day before had
 * ({@link OrderSummaryJob}, a {@code @Scheduled} method that runs once across the
 * instances with {@link dev.zklock.ClusteredJob @ClusteredJob}).
 * <p>
 * By default the application starts an embedded ZooKeeper server on 127.0.0.1:2181 and
 * keeps its data and an H2 database under {@code ./data}; H2's automatic mixed mode lets
 * a second instance, started with the {@code replica} profile, share both. The
 * {@code ensemble} profile connects to a real ZooKeeper ensemble named by the
 * {@code ZOOKEEPER_CONNECT} environment variable instead.
 */
@SpringBootApplication
@EnableScheduling
public class SampleApplication {

	/**
	 * The clock that decides which day an order belongs to: the system clock in its
	 * default time zone.
	 * @return the clock
	 */
	@Bean
	Clock clock() {
		return Clock.systemDefaultZone();
	}

	/**
	 * Starts the application. H2's automatic mixed mode serves the database file to the
	 * other instances over TCP; unless told otherwise, it listens on 127.0.0.1 only.
	 * @param args the command-line arguments
	 */
	public static void main(String[] args) {
		if (System.getProperty("h2.bindAddress") == null) {
			System.setProperty("h2.bindAddress", "127.0.0.1");
		}
		SpringApplication.run(SampleApplication.class, args);
	}

}
