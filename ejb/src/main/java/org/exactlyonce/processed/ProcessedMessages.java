package org.exactlyonce.processed;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.time.Clock;
import java.util.Optional;

/**
 * The table of processed message IDs. Recording an ID requires the caller's transaction: the ID and
 * the application's writes must commit or roll back together.
 */
@Stateless
public class ProcessedMessages {

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    private final Clock clock = Clock.systemUTC();

    /**
     * Inserts the ID and flushes at once, so the database's primary key decides before any domain
     * write happens. A look-up first spares the database (and the log) the failed insert for the
     * common duplicate, one whose first delivery committed long ago.
     *
     * @return {@link FirstDelivery#FIRST} when this is the first delivery, else why it is a duplicate;
     *     after a duplicate the transaction can only be rolled back
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public FirstDelivery recordFirstDelivery(String consumer, String messageId, Message message) {
        if (find(consumer, messageId).isPresent()) {
            return FirstDelivery.ALREADY_COMMITTED;
        }
        try {
            entityManager.persist(new ProcessedMessage(consumer, messageId, jmsMessageIdOf(message), clock.instant()));
            entityManager.flush();
            return FirstDelivery.FIRST;
        } catch (PersistenceException e) {
            if (UniqueViolations.isUniqueViolation(e)) {
                return FirstDelivery.LOST_RACE;
            }
            throw e;
        }
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ProcessedMessage> find(String consumer, String messageId) {
        return Optional.ofNullable(
                entityManager.find(ProcessedMessage.class, new ProcessedMessage.Key(consumer, messageId)));
    }

    private static String jmsMessageIdOf(Message message) {
        try {
            return message.getJMSMessageID();
        } catch (JMSException e) {
            return null; // only informational: the ID that counts is the application's
        }
    }

    /** Whether a delivery is the first one of its message ID, and if not, how that was found out. */
    public enum FirstDelivery {
        FIRST,
        /** The ID was already in the table: an earlier delivery committed. */
        ALREADY_COMMITTED,
        /** The insert hit the primary key: a concurrent delivery of the same ID committed first. */
        LOST_RACE
    }
}
