/**
 * Spring Integration's {@code LockRegistry} on zklock: the locks of the leader initiator,
 * the aggregator and the other Spring Integration components that take one, with fencing
 * tokens, lost-lock detection and hand-off.
 */
@NullMarked
package dev.zklock.integration;

import org.jspecify.annotations.NullMarked;
