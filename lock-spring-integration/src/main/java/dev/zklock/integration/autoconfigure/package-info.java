/**
 * Auto-configuration of the Spring Integration {@code LockRegistry} on zklock.
 */
@NullMarked
package dev.zklock.integration.autoconfigure;

import org.jspecify.annotations.NullMarked;
