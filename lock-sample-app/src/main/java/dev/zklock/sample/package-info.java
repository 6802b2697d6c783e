/**
 * A sample application: order numbers drawn from a per-day sequence in a shared database,
 * made safe across instances by a distributed lock on ZooKeeper.
 */
@NullMarked
package dev.zklock.sample;

import org.jspecify.annotations.NullMarked;
