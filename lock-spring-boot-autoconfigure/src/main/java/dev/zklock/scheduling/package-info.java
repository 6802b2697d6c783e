/**
 * {@link dev.zklock.ClusteredJob}: {@code @Scheduled} methods that run once per scheduled
 * time across the instances of an application, claimed in a record in ZooKeeper and run
 * under a lock of the registry.
 */
@NullMarked
package dev.zklock.scheduling;

import org.jspecify.annotations.NullMarked;
