/**
 * Testcontainers service connections to ZooKeeper, for {@code @ServiceConnection}.
 */
@NullMarked
package dev.zklock.testcontainers;

import org.jspecify.annotations.NullMarked;
