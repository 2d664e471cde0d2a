/**
 * The sample: a ledger of account credits sent as JMS messages and booked by an exactly-once consumer,
 * where a message processed twice shows as a wrong balance; with fault injection for the tests.
 */
package org.exactlyonce.sample.ledger;
