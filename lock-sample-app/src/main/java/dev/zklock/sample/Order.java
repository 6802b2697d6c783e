package dev.zklock.sample;

import java.time.Instant;

/**
 * An order, known by its number.
 *
 * @param orderNumber the order number, such as {@code 20261122-000042}
 * @param createdAt when the order was placed
 */
public record Order(String orderNumber, Instant createdAt) {

}
