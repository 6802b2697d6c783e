/**
 * Processes that tests and the benchmark harness start: {@link JavaCommand other JVMs}
 * with the caller's class path, {@link JvmProcess} to talk to them, stop, kill or pause
 * them, and ZooKeeper servers in JVMs of their own, standalone or as an
 * {@link ZooKeeperEnsemble ensemble}.
 */
@NullMarked
package dev.zklock.testsupport.process;

import org.jspecify.annotations.NullMarked;
