/**
 * Distributed locks on Apache ZooKeeper: the programmatic
 * {@link dev.zklock.LockTemplate}, the {@link dev.zklock.LockHandle} a holder works with,
 * and the {@link dev.zklock.LockManager} that acquires the locks. The
 * {@code @DistributedLock} annotation, in the same package, comes with the Spring Boot
 * auto-configuration ({@code lock-spring-boot-autoconfigure}).
 */
@NullMarked
package dev.zklock;

import org.jspecify.annotations.NullMarked;
