/**
 * The sample: a ledger of account credits sent as JMS messages and booked by an exactly-once consumer,
 * where a message processed twice shows as a wrong balance, and one that books each credit and sends a
 * receipt through the outbox.
 */
package org.exactlyonce.sample.ledger;
