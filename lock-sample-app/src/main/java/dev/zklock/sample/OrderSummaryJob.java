package dev.zklock.sample;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;

import dev.zklock.ClusteredJob;
import dev.zklock.LockHandle;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The nightly order summary: how many orders the day before had, in the
 * {@code order_summary} table, written once a night by one of the instances, whichever
 * fires first ({@link ClusteredJob @ClusteredJob}). {@code GET /actuator/clusteredjobs}
 * shows when it last ran, where and how.
 */
@Component
public class OrderSummaryJob {

	private final JdbcClient jdbc;

	private final Clock clock;

	OrderSummaryJob(JdbcClient jdbc, Clock clock) {
		this.jdbc = jdbc;
		this.clock = clock;
	}

	/**
	 * Summarizes the orders of the day before, five minutes after midnight (the cron
	 * expression is {@code sample.order-summary.cron}), in one transaction under the
	 * job's lock.
	 */
	@Scheduled(cron = "${sample.order-summary.cron:0 5 0 * * *}")
	@ClusteredJob(name = "order-summary")
	@Transactional
	public void summarize() {
		LocalDate day = LocalDate.now(this.clock).minusDays(1);
		ZoneId zone = this.clock.getZone();
		long orders = this.jdbc.sql("SELECT COUNT(*) FROM orders WHERE created_at >= ? AND created_at < ?")
			.params(day.atStartOfDay(zone).toOffsetDateTime(), day.plusDays(1).atStartOfDay(zone).toOffsetDateTime())
			.query(Long.class)
			.single();
		this.jdbc
			.sql("MERGE INTO order_summary (order_day, order_count, fencing_token) KEY (order_day) VALUES (?, ?, ?)")
			.params(day, orders, LockHandle.current().fencingToken())
			.update();
	}

}
