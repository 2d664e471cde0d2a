package org.exactlyonce.purge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The queue each consumer reads, learnt from the messages it is delivered. The purge needs it to ask
 * the broker which messages are still there; until a consumer has been delivered a message since the
 * server started, its IDs stay unconfirmed, which is safe.
 */
@ApplicationScoped
public class ConsumerQueues {

    private final Map<String, String> queueNames = new ConcurrentHashMap<>();

    /** Remembers the queue a message came from; a message from a topic teaches nothing. */
    public void remember(String consumer, Message message) {
        if (!queueNames.containsKey(consumer)) {
            try {
                Destination destination = message.getJMSDestination();
                if (destination instanceof Queue queue) {
                    queueNames.put(consumer, queue.getQueueName());
                }
            } catch (JMSException e) {
                // learnt from a later message; meanwhile the consumer's IDs stay unconfirmed
            }
        }
    }

    public Set<String> consumers() {
        return Set.copyOf(queueNames.keySet());
    }

    public Optional<String> queueOf(String consumer) {
        return Optional.ofNullable(queueNames.get(consumer));
    }
}
