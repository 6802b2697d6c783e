/**
 * The {@link dev.zklock.DistributedLock} interceptor: annotation parsing, key expressions
 * and the advising bean post-processor that applies them.
 */
@NullMarked
package dev.zklock.interceptor;

import org.jspecify.annotations.NullMarked;
