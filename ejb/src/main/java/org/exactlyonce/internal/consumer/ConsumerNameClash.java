package org.exactlyonce.internal.consumer;

/**
 * A delivery refused because its consumer's name is recorded for another destination: two consumers
 * share the name, and processing would merge their IDs. The message goes back to the broker.
 */
public class ConsumerNameClash extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConsumerNameClash(ConsumerDestination recorded, ConsumerDestination delivered) {
        super("exactly-once consumer '" + recorded.consumer() + "' refused a message from " + delivered
                + ": the database records that name for " + recorded + ". Two consumers share the name, and one"
                + " would drop the other's messages as duplicates; give one of them another name (override"
                + " consumerName()). The message goes back to the broker.");
    }
}
