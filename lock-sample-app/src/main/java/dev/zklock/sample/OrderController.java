package dev.zklock.sample;

import java.net.URI;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;

import dev.zklock.LockException;
import dev.zklock.StaleFencingTokenException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Places orders for today and looks them up: {@code POST /orders},
 * {@code POST /orders/batch} with {@code {"count": n}}, and {@code GET
 * /orders/{orderNumber}}.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

	/**
	 * The largest number of orders that one batch may place.
	 */
	public static final int MAX_BATCH_SIZE = 1000;

	private final OrderNumberService orderNumbers;

	private final OrderRepository orders;

	private final Clock clock;

	OrderController(OrderNumberService orderNumbers, OrderRepository orders, Clock clock) {
		this.orderNumbers = orderNumbers;
		this.orders = orders;
		this.clock = clock;
	}

	@PostMapping
	ResponseEntity<Order> placeOrder() {
		Order order = this.orderNumbers.placeOrder(LocalDate.now(this.clock));
		return ResponseEntity.created(URI.create("/orders/" + order.orderNumber())).body(order);
	}

	@PostMapping("/batch")
	@ResponseStatus(HttpStatus.CREATED)
	Batch placeOrders(@RequestBody BatchRequest request) {
		Integer count = request.count();
		if (count == null || count < 1 || count > MAX_BATCH_SIZE) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"'count' must be a number from 1 to " + MAX_BATCH_SIZE + ", but was " + count);
		}
		List<Order> placed = this.orderNumbers.placeOrders(LocalDate.now(this.clock), count);
		return new Batch(placed.stream().map(Order::orderNumber).toList());
	}

	@GetMapping("/{orderNumber}")
	ResponseEntity<Order> order(@PathVariable String orderNumber) {
		return ResponseEntity.of(this.orders.find(orderNumber));
	}

	@ExceptionHandler
	ProblemDetail lockUnavailable(LockException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
	}

	@ExceptionHandler
	ProblemDetail staleLockHolder(StaleFencingTokenException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
	}

	/**
	 * A request to place several orders at once.
	 *
	 * @param count how many orders to place, from 1 to {@value #MAX_BATCH_SIZE}
	 */
	public record BatchRequest(@Nullable Integer count) {

	}

	/**
	 * Orders placed at once.
	 *
	 * @param orderNumbers the numbers of the orders, consecutive and ascending
	 */
	public record Batch(List<String> orderNumbers) {

	}

}
