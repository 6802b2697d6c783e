/**
 * Health of the ZooKeeper connection that the locks use, for Spring Boot's health
 * endpoint.
 */
@NullMarked
package dev.zklock.health;

import org.jspecify.annotations.NullMarked;
