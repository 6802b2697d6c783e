/**
 * Distributed locks on Apache ZooKeeper: the {@link dev.zklock.DistributedLock}
 * annotation, the programmatic {@link dev.zklock.LockTemplate} and the
 * {@link dev.zklock.LockHandle} a holder works with.
 */
@NullMarked
package dev.zklock;

import org.jspecify.annotations.NullMarked;
