/**
 * Auto-configuration of distributed locks: the lock registry, the template and the
 * annotation post-processor.
 */
@NullMarked
package dev.zklock.autoconfigure;

import org.jspecify.annotations.NullMarked;
