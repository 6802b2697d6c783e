/**
 * Leader election for Spring applications: a candidate that joins with the application
 * context, events when this instance's terms are granted and revoked, and lifecycle beans
 * that run only while it leads.
 */
@NullMarked
package dev.zklock.leadership;

import org.jspecify.annotations.NullMarked;
