package dev.zklock.sample;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.jdbc.JdbcLockFence;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Places orders with numbers from the day's sequence, under the day's distributed lock
 * ({@code order-sequence:} and the ISO day, such as {@code order-sequence:2026-11-22}).
 * Single orders take the lock with {@link DistributedLock}, batches with
 * {@link LockTemplate}; both hold it around their transaction, which first checks the
 * lock's fencing token with the {@link JdbcLockFence}. Their locks' metrics are named
 * after the methods ({@code OrderNumberService.placeOrder} and
 * {@code OrderNumberService.placeOrders}), never after the day's key.
 */
@Service
public class OrderNumberService {

	private static final DateTimeFormatter DAY_FORMAT = DateTimeFormatter.BASIC_ISO_DATE;

	private static final long MAX_SEQUENCE = 999_999;

	private final JdbcLockFence fence;

	private final DailySequence sequence;

	private final OrderRepository orders;

	private final LockTemplate lockTemplate;

	private final TransactionTemplate transactionTemplate;

	private final Clock clock;

	OrderNumberService(JdbcLockFence fence, DailySequence sequence, OrderRepository orders, LockTemplate lockTemplate,
			TransactionTemplate transactionTemplate, Clock clock) {
		this.fence = fence;
		this.sequence = sequence;
		this.orders = orders;
		this.lockTemplate = lockTemplate;
		this.transactionTemplate = transactionTemplate;
		this.clock = clock;
	}

	/**
	 * Places one order with the next number of the day.
	 * @param day the day the order belongs to
	 * @return the order
	 * @throws dev.zklock.StaleFencingTokenException if this instance lost the day's lock
	 * to a holder that placed orders since
	 */
	@DistributedLock(key = "'order-sequence:' + #day")
	@Transactional
	public Order placeOrder(LocalDate day) {
		return place(day, 1, LockHandle.current()).get(0);
	}

	/**
	 * Places orders with the next consecutive numbers of the day, all or none.
	 * @param day the day the orders belong to
	 * @param count how many orders to place
	 * @return the orders, in the order of their numbers
	 * @throws dev.zklock.StaleFencingTokenException if this instance lost the day's lock
	 * to a holder that placed orders since
	 */
	public List<Order> placeOrders(LocalDate day, int count) {
		return this.lockTemplate.execute(
				LockRequest.exclusive("order-sequence:" + day).withName("OrderNumberService.placeOrders"),
				(lock) -> this.transactionTemplate.execute((status) -> place(day, count, lock)));
	}

	private List<Order> place(LocalDate day, int count, LockHandle lock) {
		this.fence.check(lock);
		long first = this.sequence.reserve(day, count);
		if (first + count - 1 > MAX_SEQUENCE) {
			throw new IllegalStateException("The order numbers of " + day + " are used up");
		}
		Instant createdAt = this.clock.instant();
		List<Order> placed = new ArrayList<>(count);
		for (long number = first; number < first + count; number++) {
			Order order = new Order(orderNumber(day, number), createdAt);
			this.orders.insert(order);
			placed.add(order);
		}
		return placed;
	}

	private static String orderNumber(LocalDate day, long number) {
		return DAY_FORMAT.format(day) + "-" + String.format("%06d", number);
	}

}
