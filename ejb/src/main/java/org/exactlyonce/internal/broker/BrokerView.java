package org.exactlyonce.internal.broker;

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
    record Candidate(String messageId, String jmsMessageId) {

        /**
         * Whether its message is among these, by JMS message ID; one processed without a JMS message ID
         * is taken to be among any messages at all, which only keeps its ID longer.
         */
        public boolean isAmong(Set<String> jmsMessageIds) {
            return jmsMessageId == null ? !jmsMessageIds.isEmpty() : jmsMessageIds.contains(jmsMessageId);
        }

        /**
         * A message sought by its application ID alone: a producer's re-send of an ID whose own message is
         * gone. The JMS message ID it is given is one no message has ({@code ID:} starts every other).
         */
        public static Candidate byApplicationId(String messageId) {
            return new Candidate(messageId, "");
        }
    }

    /**
     * The broker that delivered a message, as this view names brokers; empty when neither the message
     * nor the server says. A broker of several nodes may be named by any of them.
     */
    Optional<String> brokerOf(Message message);

    /**
     * The brokers whose queues this view sees, named as {@link #brokerOf} names them: one, or every node of
     * a cluster, whose look asks them all.
     *
     * @throws BrokerCannotTell when this server sees no broker's queues, or cannot learn their names
     */
    Set<String> brokers() throws BrokerCannotTell;

    /**
     * @param queue the queue's name, as a delivered message names it
     * @param candidates processed messages whose processing committed before the call
     * @return the application message IDs of the candidates whose messages were on the queue during the look
     * @throws BrokerCannotTell when this view cannot see the queue or the broker does not answer: then
     *     nothing may be confirmed through the broker (at most by age, when configured)
     */
    Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell;

    /**
     * Like {@link #stillOnQueue}, for a topic: the candidates whose messages a subscription of the topic
     * held during the look, durable or not. Every subscription of the topic counts, the consumer's own
     * among them, which only keeps an ID longer when another subscriber is slower.
     *
     * @param topic the topic's name, as a delivered message names it
     */
    Set<String> stillOnTopic(String topic, Collection<Candidate> candidates) throws BrokerCannotTell;
}
