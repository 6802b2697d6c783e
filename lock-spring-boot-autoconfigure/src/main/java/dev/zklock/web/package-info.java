/**
 * Lock failures in web applications: the problem details (RFC 9457) with which a Spring
 * MVC or WebFlux application answers a request whose lock could not be had or kept.
 */
@NullMarked
package dev.zklock.web;

import org.jspecify.annotations.NullMarked;
