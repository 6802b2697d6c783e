package dev.zklock.sample;

import java.time.LocalDate;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The per-day order sequences, one row per day in the {@code order_sequence} table.
 * <p>
 * Advancing a sequence reads the last value and then writes the new one: two separate
 * statements, with nothing in the database that stops two writers from reading the same
 * value. Callers must hold the day's distributed lock for the whole transaction, and
 * check its fencing token with the lock fence before they advance the sequence, so that a
 * holder that lost the lock cannot write.
 */
@Repository
public class DailySequence {

	private final JdbcClient jdbc;

	DailySequence(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Reserves the next values of a day's sequence, which starts at 1.
	 * @param day the day
	 * @param count how many consecutive values to reserve
	 * @return the first reserved value; the others follow it
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public long reserve(LocalDate day, int count) {
		Optional<Long> last = this.jdbc.sql("SELECT last_value FROM order_sequence WHERE order_day = ?")
			.param(day)
			.query(Long.class)
			.optional();
		if (last.isEmpty()) {
			this.jdbc.sql("INSERT INTO order_sequence (order_day, last_value) VALUES (?, ?)")
				.params(day, count)
				.update();
			return 1;
		}
		this.jdbc.sql("UPDATE order_sequence SET last_value = ? WHERE order_day = ?")
			.params(last.get() + count, day)
			.update();
		return last.get() + 1;
	}

}
