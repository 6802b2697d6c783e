/**
 * Benchmarks of zklock against raw Apache Curator and Spring Integration on one ZooKeeper
 * server or an ensemble, and against the peers on other servers (Redisson on Redis,
 * Spring Integration's JDBC registry and ShedLock on PostgreSQL): a JMH benchmark of the
 * uncontended cycle and a harness that runs contended and many-key scenarios in worker
 * JVMs, with a report, a results file and a chart.
 * {@link dev.zklock.benchmarks.BenchmarkHarness} is the entry point.
 */
@NullMarked
package dev.zklock.benchmarks;

import org.jspecify.annotations.NullMarked;
