/**
 * Processes that tests and the benchmark harness start: {@link JavaCommand other JVMs}
 * with the caller's class path, {@link JvmProcess} to talk to them, stop, kill or pause
 * them, ZooKeeper servers in JVMs of their own, standalone or as an
 * {@link ZooKeeperEnsemble ensemble}, and the servers of the peers zklock is measured
 * beside: {@link RedisServerProcess Redis} and {@link PostgresServerProcess PostgreSQL}.
 */
@NullMarked
package dev.zklock.testsupport.process;

import org.jspecify.annotations.NullMarked;
