/**
 * Messages a transaction sends: {@link org.exactlyonce.outbox.Outbox} writes them to a table in the
 * transaction that writes the processed ID and the application's rows, and a relay sends them once it
 * has committed, each with an ID of its own that a downstream exactly-once consumer drops a second copy of.
 */
package org.exactlyonce.outbox;
