/**
 * Auto-configuration of the problem details of lock failures in Spring MVC and WebFlux
 * applications.
 */
@NullMarked
package dev.zklock.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
