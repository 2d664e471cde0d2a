package org.exactlyonce;

import jakarta.jms.Message;

/**
 * A CDI event fired when a delivery, or the purge, reaches a point of the protocol where a crash
 * matters. It exists so tests can crash the server at exactly that point, or fail a delivery there:
 * an observer runs on the delivering thread, in the delivery's transaction, and what it throws fails
 * the delivery as a failure of processing would. Production code has no reason to observe it.
 *
 * @param step the point reached
 * @param consumer the consumer's name; for the outbox's step, the destination
 * @param messageId the application's message ID; {@code null} for the purge's steps, the last sent for the outbox's
 * @param message the delivered message; {@code null} for the purge's steps
 */
public record ProtocolStep(Step step, String consumer, String messageId, Message message) {

    /** The points of the protocol that the crash matrix names. */
    public enum Step {
        /** The message's ID is recorded in the delivery's transaction; processing is about to run. */
        BEFORE_PROCESS,
        /** Processing has run; the transaction is about to commit. */
        BEFORE_COMMIT,
        /** The transaction committed; the container has not acknowledged the message yet. */
        AFTER_COMMIT,
        /** The message is parked and its park committed; it has not been acknowledged yet. */
        AFTER_PARK,
        /** The purge has confirmed a batch of IDs as acknowledged and not deleted them yet. */
        PURGE_CONFIRMED,
        /** The purge has deleted a batch of IDs in a transaction that has not committed yet. */
        PURGE_DELETING,
        /** The outbox's relay has sent a batch of messages and not yet deleted them from the outbox. */
        OUTBOX_SENT
    }

    /** The event of a purge step, which concerns a consumer's IDs rather than one message. */
    public static ProtocolStep ofPurge(Step step, String consumer) {
        return new ProtocolStep(step, consumer, null, null);
    }
}
