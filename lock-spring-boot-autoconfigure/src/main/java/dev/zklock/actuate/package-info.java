/**
 * Actuator support for distributed locks: the {@code locks} endpoint.
 */
@NullMarked
package dev.zklock.actuate;

import org.jspecify.annotations.NullMarked;
