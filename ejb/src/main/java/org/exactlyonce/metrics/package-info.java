/** The consumers' figures (deliveries per outcome, processed last minute, ID table counts), exported as MicroProfile Metrics where the server has them. */
package org.exactlyonce.metrics;
