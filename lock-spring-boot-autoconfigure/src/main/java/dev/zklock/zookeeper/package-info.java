/**
 * Locks on Apache ZooKeeper through Apache Curator: one reusable mutex per key, fencing
 * tokens from the lock node's creation zxid, and safe node names for any key.
 */
@NullMarked
package dev.zklock.zookeeper;

import org.jspecify.annotations.NullMarked;
