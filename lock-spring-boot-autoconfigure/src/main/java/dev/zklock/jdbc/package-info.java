/**
 * Fencing for relational databases: {@link dev.zklock.jdbc.JdbcLockFence} refuses the
 * transactions of lock holders whose fencing token is stale.
 */
@NullMarked
package dev.zklock.jdbc;

import org.jspecify.annotations.NullMarked;
