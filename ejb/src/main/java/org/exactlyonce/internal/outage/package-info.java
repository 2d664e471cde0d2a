/**
 * Database failures that say nothing about the message: retried with back-off under MicroProfile Fault
 * Tolerance, and, while the database is down, deliveries held and message endpoints paused until a
 * probe finds it back.
 */
package org.exactlyonce.internal.outage;
