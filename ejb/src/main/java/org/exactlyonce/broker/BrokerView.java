package org.exactlyonce.broker;

import jakarta.jms.Message;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * A broker's answer to the purge's one question: which of these processed messages are still on the
 * queue, in any state (available, delivered but not acknowledged, scheduled for redelivery, paged),
 * and so may still be delivered. Each processed ID records the broker that delivered it, and only a
 * view of that broker answers for it: a broker the view cannot see is reported, never guessed.
 */
public interface BrokerView {

    /** A processed message the purge asks about. */
    record Candidate(String messageId, String jmsMessageId) {}

    /**
     * The broker that delivered a message, as this view names brokers; empty when neither the message
     * nor the server says.
     */
    Optional<String> brokerOf(Message message);

    /**
     * The broker whose queues this view sees, named as {@link #brokerOf} names it.
     *
     * @throws BrokerCannotTell when this server sees no broker's queues, or cannot learn its name
     */
    String broker() throws BrokerCannotTell;

    /**
     * @param queue the queue's name, as a delivered message names it
     * @param candidates processed messages whose processing committed before the call
     * @return the application message IDs of the candidates whose messages were on the queue during the look
     * @throws BrokerCannotTell when this view cannot see the queue or the broker does not answer: then
     *     nothing may be confirmed
     */
    Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell;
}
