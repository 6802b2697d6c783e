/**
 * Test support for applications that lock: {@link dev.zklock.test.EmbeddedLockServer}
 * starts a ZooKeeper server for a {@code @SpringBootTest}'s application,
 * {@link dev.zklock.test.LockAssertions} check that code runs under a lock of a key and
 * type, and {@link dev.zklock.test.OtherProcess} holds keys as another instance of the
 * application would.
 */
@NullMarked
package dev.zklock.test;

import org.jspecify.annotations.NullMarked;
