/**
 * Auto-configuration of the Curator client that the locks use, and of an embedded
 * ZooKeeper server for development.
 */
@NullMarked
package dev.zklock.autoconfigure.zookeeper;

import org.jspecify.annotations.NullMarked;
