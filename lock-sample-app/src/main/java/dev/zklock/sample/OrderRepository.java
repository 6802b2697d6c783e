package dev.zklock.sample;

import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The placed orders, in the {@code orders} table.
 */
@Repository
public class OrderRepository {

	private final JdbcClient jdbc;

	OrderRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Stores a new order; fails if its number is taken.
	 * @param order the order
	 */
	public void insert(Order order) {
		this.jdbc.sql("INSERT INTO orders (order_number, created_at) VALUES (?, ?)")
			.params(order.orderNumber(), order.createdAt())
			.update();
	}

	/**
	 * Finds an order by its number.
	 * @param orderNumber the order number
	 * @return the order, or empty if there is none with that number
	 */
	public Optional<Order> find(String orderNumber) {
		return this.jdbc.sql("SELECT order_number, created_at FROM orders WHERE order_number = ?")
			.param(orderNumber)
			.query(Order.class)
			.optional();
	}

}
