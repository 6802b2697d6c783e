/**
 * Auto-configuration of the {@link dev.zklock.ClusteredJob}s.
 */
@NullMarked
package dev.zklock.autoconfigure.scheduling;

import org.jspecify.annotations.NullMarked;
