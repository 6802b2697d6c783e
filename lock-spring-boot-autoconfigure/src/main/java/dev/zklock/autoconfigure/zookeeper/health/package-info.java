/**
 * Auto-configuration of the ZooKeeper health indicator.
 */
@NullMarked
package dev.zklock.autoconfigure.zookeeper.health;

import org.jspecify.annotations.NullMarked;
