/**
 * Auto-configuration of the JDBC lock fence.
 */
@NullMarked
package dev.zklock.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
