/**
 * Micrometer observations of distributed locks: the context they carry and the convention
 * that names them and their low-cardinality tags.
 */
@NullMarked
package dev.zklock.observation;

import org.jspecify.annotations.NullMarked;
