/**
 * What deliveries report: the consumers' figures (deliveries per outcome, processed last minute, ID table
 * counts), which the console shows and scrapers read, and one OpenTelemetry span per delivery.
 */
package org.exactlyonce.internal.telemetry;
