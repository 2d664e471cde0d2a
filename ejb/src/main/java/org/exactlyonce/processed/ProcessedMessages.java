package org.exactlyonce.processed;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.TypedQuery;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.exactlyonce.consume.ProtocolStep;

/**
 * The table of processed message IDs. Recording an ID requires the caller's transaction: the ID and
 * the application's writes must commit or roll back together. Every purge operation is one short
 * transaction of its own, so a purge never holds locks for long.
 */
@Stateless
public class ProcessedMessages {

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    @Inject
    private Event<ProtocolStep> steps;

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
    public FirstDelivery recordFirstDelivery(String consumer, String messageId, Message message) throws JMSException {
        String fingerprint = PayloadFingerprints.of(message);
        Optional<ProcessedMessage> earlier = find(consumer, messageId);
        if (earlier.isPresent()) {
            return Objects.equals(earlier.get().payloadSha256(), fingerprint)
                    ? FirstDelivery.ALREADY_COMMITTED
                    : FirstDelivery.CONFLICTING_PAYLOAD;
        }
        try {
            entityManager.persist(
                    new ProcessedMessage(consumer, messageId, jmsMessageIdOf(message), fingerprint, clock.instant()));
            entityManager.flush();
            return FirstDelivery.FIRST;
        } catch (PersistenceException e) {
            if (SqlStates.isUniqueViolation(e)) {
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

    /**
     * A page of one consumer's unconfirmed IDs, in ID order: processed before {@code processedBefore}
     * and after {@code afterId} ({@code ""} for the first page).
     */
    public List<ProcessedMessage> unconfirmed(String consumer, Instant processedBefore, String afterId, int limit) {
        return entityManager
                .createQuery(
                        "select p from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt is null and p.processedAt < :before and p.messageId > :after"
                                + " order by p.messageId",
                        ProcessedMessage.class)
                .setParameter("consumer", consumer)
                .setParameter("before", utc(processedBefore))
                .setParameter("after", afterId)
                .setMaxResults(limit)
                .getResultList();
    }

    /** Marks IDs whose messages are confirmed gone from the broker; those already marked keep their time. */
    public int markAcknowledged(String consumer, Collection<String> messageIds, Instant now) {
        if (messageIds.isEmpty()) {
            return 0;
        }
        return entityManager
                .createQuery("update ProcessedMessage p set p.acknowledgedAt = :now where p.consumer = :consumer"
                        + " and p.messageId in :ids and p.acknowledgedAt is null")
                .setParameter("now", utc(now))
                .setParameter("consumer", consumer)
                .setParameter("ids", messageIds)
                .executeUpdate();
    }

    /**
     * Deletes up to {@code limit} IDs of one consumer acknowledged at or before {@code cutoff}, in one
     * transaction, except those to spare; IDs still unconfirmed are never deleted.
     *
     * @return how many were deleted; fewer than {@code limit} means none are left
     */
    public int deleteAcknowledgedUntil(String consumer, Instant cutoff, int limit, Set<String> spared) {
        // spared IDs are left out in the query, so a short batch still means that none are left
        TypedQuery<String> select = entityManager
                .createQuery(
                        "select p.messageId from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt <= :cutoff"
                                + (spared.isEmpty() ? "" : " and p.messageId not in :spared")
                                + " order by p.messageId",
                        String.class)
                .setParameter("consumer", consumer)
                .setParameter("cutoff", utc(cutoff))
                .setMaxResults(limit);
        if (!spared.isEmpty()) {
            select.setParameter("spared", spared);
        }
        List<String> expired = select.getResultList();
        if (expired.isEmpty()) {
            return 0;
        }
        int deleted = entityManager
                .createQuery("delete from ProcessedMessage p where p.consumer = :consumer"
                        + " and p.messageId in :ids and p.acknowledgedAt <= :cutoff")
                .setParameter("consumer", consumer)
                .setParameter("ids", expired)
                .setParameter("cutoff", utc(cutoff))
                .executeUpdate();
        steps.fire(ProtocolStep.ofPurge(ProtocolStep.Step.PURGE_DELETING, consumer));
        return deleted;
    }

    /** A cheap query, to learn whether the database answers again; throws when it does not. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public void ping() {
        entityManager
                .createQuery("select count(p) from ProcessedMessage p where p.consumer = ''", Long.class)
                .getSingleResult();
    }

    /**
     * Counts one consumer's rows. It reads the whole consumer's part of the table, so the purge calls
     * it once per run and everybody else reads that figure, rather than each request scanning (and,
     * on Derby, share-locking) the rows the purge is updating.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public IdTableCounts count(String consumer) {
        Instant countedAt = clock.instant();
        LocalDateTime oldest = entityManager
                .createQuery(
                        "select min(p.processedAt) from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt is null",
                        LocalDateTime.class)
                .setParameter("consumer", consumer)
                .getSingleResult();
        return new IdTableCounts(
                count(consumer, "p.acknowledgedAt is null"),
                count(consumer, "p.acknowledgedAt is not null"),
                oldest == null ? null : oldest.toInstant(ZoneOffset.UTC),
                countedAt);
    }

    private long count(String consumer, String condition) {
        return entityManager
                .createQuery(
                        "select count(p) from ProcessedMessage p where p.consumer = :consumer and " + condition,
                        Long.class)
                .setParameter("consumer", consumer)
                .getSingleResult();
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
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
        LOST_RACE,
        /** The ID was already in the table, with another payload: a different message reusing the ID. */
        CONFLICTING_PAYLOAD
    }
}
