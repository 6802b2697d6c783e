/**
 * Auto-configuration of leader election.
 */
@NullMarked
package dev.zklock.autoconfigure.leadership;

import org.jspecify.annotations.NullMarked;
