package org.exactlyonce.consume;

import jakarta.jms.Message;

/**
 * A CDI event fired when a delivery reaches a point of the protocol where a crash matters. It exists
 * so tests can crash the server at exactly that point; production code has no reason to observe it.
 *
 * @param step the point reached
 * @param consumer the consumer's name
 * @param messageId the application's message ID
 * @param message the delivered message
 */
public record ProtocolStep(Step step, String consumer, String messageId, Message message) {

    /** The points of the protocol that the crash matrix names. */
    public enum Step {
        /** Processing has run; the transaction is about to commit. */
        BEFORE_COMMIT,
        /** The transaction committed; the container has not acknowledged the message yet. */
        AFTER_COMMIT
    }
}
