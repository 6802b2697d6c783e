/**
 * Auto-configuration of the {@code locks} actuator endpoint.
 */
@NullMarked
package dev.zklock.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
