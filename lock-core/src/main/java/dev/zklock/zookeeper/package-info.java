/**
 * Locks on Apache ZooKeeper through Apache Curator: a fair queue of lock nodes per key,
 * fencing tokens from the lock node's creation zxid, lost-lock detection, and safe node
 * names for any key.
 */
@NullMarked
package dev.zklock.zookeeper;

import org.jspecify.annotations.NullMarked;
