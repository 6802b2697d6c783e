/**
 * Distributed locks on Apache ZooKeeper, the Spring side: the
 * {@link dev.zklock.DistributedLock} annotation and what it says to do when a lock cannot
 * be had. The rest of this package, {@link dev.zklock.LockTemplate} and
 * {@link dev.zklock.LockHandle} among it, comes from {@code lock-core}.
 */
@NullMarked
package dev.zklock;

import org.jspecify.annotations.NullMarked;
