/**
 * Docker Compose service connections to ZooKeeper.
 */
@NullMarked
package dev.zklock.docker.compose;

import org.jspecify.annotations.NullMarked;
