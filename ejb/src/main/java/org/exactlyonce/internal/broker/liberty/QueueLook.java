package org.exactlyonce.internal.broker.liberty;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import org.exactlyonce.internal.broker.BrokerView.Candidate;

/**
 * One consistent look at a queue on Open Liberty's messaging engine: which processed messages are
 * still there, in any state. The engine's listing comes first and names every message on the queue
 * then; a browse follows and sees the available ones. Every listed message is accounted for: seen
 * available by the browse, or described by the engine (its JMS message ID) — the locked ones, and
 * the ones the browse missed because they were delivered meanwhile. A message acknowledged meanwhile
 * is described as gone, which is right.
 */
final class QueueLook {

    private QueueLook() {}

    /** A message as the engine lists it. */
    record Listed(String engineId, boolean available, String systemMessageId) {}

    /**
     * What a browse of the queue saw.
     *
     * @param applicationIds the application IDs, among those asked about, of the available messages
     * @param systemMessageIds the engine's system message IDs of every message browsed
     */
    record Browsed(Set<String> applicationIds, Set<String> systemMessageIds) {}

    /** The engine's description of listed messages. */
    @FunctionalInterface
    interface Describer {
        /**
         * @return the JMS message ID of each of the messages still on the queue; those acknowledged
         *     since are left out
         * @throws JMException when a message still listed cannot be described
         */
        Map<String, String> jmsMessageIdsOf(Set<String> engineIds) throws JMException;
    }

    /** The application IDs of the candidates whose messages were on the queue during the look. */
    static Set<String> pending(
            List<Listed> listed, Browsed browsed, Collection<Candidate> candidates, Describer describer)
            throws JMException {
        Set<String> unseen = new HashSet<>();
        for (Listed message : listed) {
            if (!message.available() || !browsed.systemMessageIds().contains(message.systemMessageId())) {
                unseen.add(message.engineId());
            }
        }
        // a set that takes null: a message may come without a JMS message ID, and be processed without one
        Set<String> onQueue = unseen.isEmpty()
                ? new HashSet<>()
                : new HashSet<>(describer.jmsMessageIdsOf(unseen).values());
        Set<String> pending = new HashSet<>();
        for (Candidate candidate : candidates) {
            if (browsed.applicationIds().contains(candidate.messageId()) || candidate.isAmong(onQueue)) {
                pending.add(candidate.messageId());
            }
        }
        return pending;
    }
}
