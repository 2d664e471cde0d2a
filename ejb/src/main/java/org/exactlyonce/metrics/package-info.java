/** Counts of deliveries per consumer and outcome, as MicroProfile Metrics. */
package org.exactlyonce.metrics;
