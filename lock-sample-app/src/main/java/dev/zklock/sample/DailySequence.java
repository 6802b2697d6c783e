package dev.zklock.sample;

import java.time.LocalDate;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The per-day order sequences, one row per day in the {@code order_sequence} table, with
 * the fencing token of the lock holder that wrote it last.
 * <p>
 * Advancing a sequence reads the last value and then writes the new one: two separate
 * statements, with nothing in the database that stops two writers from reading the same
 * value. Callers must hold the day's distributed lock for the whole transaction. The
 * write is fenced: it applies only if no holder with a newer fencing token wrote the row
 * before.
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
	 * @param fencingToken the fencing token of the caller's hold of the day's lock
	 * @return the first reserved value; the others follow it
	 * @throws StaleLockHolderException if a holder with a newer fencing token has written
	 * the sequence
	 */
	@Transactional(propagation = Propagation.MANDATORY)
	public long reserve(LocalDate day, int count, long fencingToken) {
		Optional<Long> last = this.jdbc.sql("SELECT last_value FROM order_sequence WHERE order_day = ?")
			.param(day)
			.query(Long.class)
			.optional();
		if (last.isEmpty()) {
			this.jdbc.sql("INSERT INTO order_sequence (order_day, last_value, fencing_token) VALUES (?, ?, ?)")
				.params(day, count, fencingToken)
				.update();
			return 1;
		}
		int updated = this.jdbc.sql(
				"UPDATE order_sequence SET last_value = ?, fencing_token = ? WHERE order_day = ? AND fencing_token <= ?")
			.params(last.get() + count, fencingToken, day, fencingToken)
			.update();
		if (updated == 0) {
			throw new StaleLockHolderException(day, fencingToken);
		}
		return last.get() + 1;
	}

}
