package org.exactlyonce.internal.outbox;

import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;

/**
 * Where an outgoing message goes, by the broker's name for it, as the outbox keeps it: a queue or a
 * topic. A temporary one is refused, since it dies with the connection that made it.
 */
public record Target(Kind kind, String name) {

    public enum Kind {
        QUEUE,
        TOPIC
    }

    public static Target of(Destination destination) throws JMSException {
        if (destination instanceof TemporaryQueue || destination instanceof TemporaryTopic || destination == null) {
            throw new IllegalArgumentException(
                    "the outbox sends to a queue or a topic that outlives the transaction, not to " + destination);
        }
        return destination instanceof Topic topic
                ? new Target(Kind.TOPIC, topic.getTopicName())
                : new Target(Kind.QUEUE, ((Queue) destination).getQueueName());
    }

    public Destination resolve(JMSContext jms) {
        return kind == Kind.TOPIC ? jms.createTopic(name) : jms.createQueue(name);
    }

    /** The key a relay leases, one per destination: {@code queue:LedgerReceipts}. */
    public String key() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + name;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + name;
    }
}
