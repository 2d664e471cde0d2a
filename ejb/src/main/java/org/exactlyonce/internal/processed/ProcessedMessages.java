package org.exactlyonce.internal.processed;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import jakarta.persistence.TypedQuery;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.exactlyonce.ProtocolStep;

/**
 * The table of processed message IDs: why a duplicate's ID is there, and the purge's work on it. Every
 * purge operation is one short transaction of its own, so a purge never holds locks for long. A
 * delivery records its ID through {@link IdRows}.
 */
@Stateless
public class ProcessedMessages {

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    @Inject
    private Event<ProtocolStep> steps;

    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    @Resource
    private SessionContext context;

    private final Clock clock = Clock.systemUTC();

    /** Learnt from the database on first use: see {@link #unconfirmedInIdOrder}. */
    private String unconfirmedOrder;

    /**
     * Learnt from the database once it has the column for the figures; until then, asked again on each
     * use, so that the figures are kept from the moment an operator adds the column.
     */
    private Optional<AcknowledgedCounts> acknowledgedCounts = Optional.empty();

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ProcessedMessage> find(String consumer, String messageId) {
        return Optional.ofNullable(
                entityManager.find(ProcessedMessage.class, new ProcessedMessage.Key(consumer, messageId)));
    }

    /**
     * A page of one consumer's unconfirmed IDs that the brokers (never none) delivered, in ID order: processed before
     * {@code processedBefore} and after {@code afterId} ({@code ""} for the first page).
     */
    public List<ProcessedMessage> unconfirmed(
            String consumer, Set<String> brokers, Instant processedBefore, String afterId, int limit) {
        return entityManager
                .createQuery(
                        "select p from ProcessedMessage p where p.consumer = :consumer and p.broker in :brokers"
                                + " and p.acknowledgedAt is null and p.processedAt < :before and p.messageId > :after"
                                + unconfirmedInIdOrder(),
                        ProcessedMessage.class)
                .setParameter("consumer", consumer)
                .setParameter("brokers", brokers)
                .setParameter("before", utc(processedBefore))
                .setParameter("after", StoredIds.stored(afterId))
                .setMaxResults(limit)
                .getResultList();
    }

    /**
     * Up to {@code limit} of one consumer's unconfirmed IDs processed before the given time, in ID order:
     * of every broker, or, when {@code exceptBrokers} names some, of the other brokers (an unknown one
     * included).
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ProcessedMessage> unconfirmedBefore(
            String consumer, Set<String> exceptBrokers, Instant processedBefore, int limit) {
        TypedQuery<ProcessedMessage> query = entityManager
                .createQuery(
                        "select p from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt is null and p.processedAt < :before"
                                + (exceptBrokers.isEmpty() ? "" : " and (p.broker is null or p.broker not in :brokers)")
                                + unconfirmedInIdOrder(),
                        ProcessedMessage.class)
                .setParameter("consumer", consumer)
                .setParameter("before", utc(processedBefore))
                .setMaxResults(limit);
        if (!exceptBrokers.isEmpty()) {
            query.setParameter("brokers", exceptBrokers);
        }
        return query.getResultList();
    }

    /**
     * How many of one consumer's IDs other brokers delivered (or an unknown one, under {@code null}) wait
     * unconfirmed, by broker: the view of the given brokers (never none) cannot confirm them.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, Long> unconfirmedOfOtherBrokers(String consumer, Set<String> brokers) {
        Map<String, Long> counts = new HashMap<>();
        entityManager
                .createQuery(
                        "select p.broker, count(p) from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt is null and (p.broker is null or p.broker not in :brokers)"
                                + " group by p.broker",
                        Object[].class)
                .setParameter("consumer", consumer)
                .setParameter("brokers", brokers)
                .getResultList()
                .forEach(row -> counts.put((String) row[0], (Long) row[1]));
        return counts;
    }

    /**
     * Forgets the crashes and failures counted for one consumer's messages whose last delivery was
     * interrupted before the time (the table {@code EO_INTERRUPTED_DELIVERY}, which the deliveries write).
     */
    public int forgetInterruptionsBefore(String consumer, Instant before) {
        return entityManager
                .createQuery("delete from InterruptedDelivery i where i.consumer = :consumer"
                        + " and i.lastInterruptedAt < :before")
                .setParameter("consumer", consumer)
                .setParameter("before", utc(before))
                .executeUpdate();
    }

    /**
     * Marks IDs whose messages are confirmed gone from the broker; those already marked keep their time.
     * The consumer's count of acknowledged IDs changes in the same transaction.
     */
    public int markAcknowledged(String consumer, Collection<String> messageIds, Instant now) {
        if (messageIds.isEmpty()) {
            return 0;
        }
        Optional<AcknowledgedCounts> counts = acknowledgedCounts();
        counts.ifPresent(kept -> kept.lock(consumer));
        int marked = entityManager
                .createQuery("update ProcessedMessage p set p.acknowledgedAt = :now where p.consumer = :consumer"
                        + " and p.messageId in :ids and p.acknowledgedAt is null")
                .setParameter("now", utc(now))
                .setParameter("consumer", consumer)
                .setParameter("ids", stored(messageIds))
                .executeUpdate();
        counts.ifPresent(kept -> kept.add(consumer, marked));
        return marked;
    }

    /**
     * Up to {@code limit} of one consumer's IDs acknowledged at or before {@code cutoff}, except those of
     * parked messages, in the order of their acknowledgement and then of their ID, after the given one:
     * the next batch for {@link #deleteAcknowledged}. A read, so that the purge looks for a batch before it
     * holds deliveries back, and holds them only while it deletes. Each batch starts where the last one
     * ended, in the order of the table's purge index {@code (CONSUMER, ACKNOWLEDGED_AT, MESSAGE_ID)}: it
     * reads the IDs it returns and no others. Starting again from the first would step over every row
     * its predecessors deleted and the database has not vacuumed yet (a cost that grows with the square
     * of the deletions); going in ID order would read the IDs still inside the dedup window too, which
     * are most of the table between two runs.
     *
     * @param afterAcknowledgedAt when the previous batch's last ID was acknowledged; empty for the first batch
     * @param afterId the previous batch's last ID
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ProcessedMessage> acknowledgedUntil(
            String consumer, Instant cutoff, Optional<Instant> afterAcknowledgedAt, String afterId, int limit) {
        List<ProcessedMessage> batch = new ArrayList<>();
        // the purge confirms a run's IDs with one time: the rest of the previous batch's time first, then later times
        afterAcknowledgedAt.ifPresent(
                at -> batch.addAll(acknowledged(consumer, "p.acknowledgedAt = :at and p.messageId > :after", limit)
                        .setParameter("at", utc(at))
                        .setParameter("after", StoredIds.stored(afterId))
                        .getResultList()));
        if (batch.size() < limit) {
            TypedQuery<ProcessedMessage> later = acknowledged(
                            consumer,
                            "p.acknowledgedAt <= :cutoff"
                                    + (afterAcknowledgedAt.isPresent() ? " and p.acknowledgedAt > :at" : ""),
                            limit - batch.size())
                    .setParameter("cutoff", utc(cutoff));
            afterAcknowledgedAt.ifPresent(at -> later.setParameter("at", utc(at)));
            batch.addAll(later.getResultList());
        }
        return batch;
    }

    private TypedQuery<ProcessedMessage> acknowledged(String consumer, String condition, int limit) {
        return entityManager
                .createQuery(
                        "select p from ProcessedMessage p where p.consumer = :consumer and " + condition
                                + NOT_PARKED
                                + " order by p.acknowledgedAt, p.messageId",
                        ProcessedMessage.class)
                .setParameter("consumer", consumer)
                .setMaxResults(limit);
    }

    /**
     * Deletes, in one transaction, those of the IDs that are still acknowledged at or before
     * {@code cutoff} and not parked, except those in flight. Every condition of {@link #acknowledgedUntil}
     * is checked again: a delivery may have parked a re-sent copy of an ID since the batch was read. The
     * consumer's count of acknowledged IDs changes in the same transaction, and is locked before the
     * deliveries are held: so they are held while the rows are deleted, never while this waits for
     * another server's transaction on the count. A delivery that begins once they are no longer held
     * and inserts a deleted ID waits for this transaction's end, as it would have before.
     *
     * @param whileNoneBegins runs the deletion it is given, with the IDs in flight to spare, while no
     *     delivery of the consumer can begin
     * @return how many it deleted (fewer when another server's purge deleted some first)
     */
    public int deleteAcknowledged(
            String consumer,
            List<String> messageIds,
            Instant cutoff,
            Function<Function<Set<String>, Integer>, Integer> whileNoneBegins) {
        if (messageIds.isEmpty()) {
            return 0;
        }
        Optional<AcknowledgedCounts> counts = acknowledgedCounts();
        counts.ifPresent(kept -> kept.lock(consumer));
        int deleted = whileNoneBegins.apply(spared -> delete(consumer, messageIds, cutoff, spared));
        counts.ifPresent(kept -> kept.add(consumer, -deleted));
        steps.fire(ProtocolStep.ofPurge(ProtocolStep.Step.PURGE_DELETING, consumer));
        return deleted;
    }

    private int delete(String consumer, List<String> messageIds, Instant cutoff, Set<String> spared) {
        Query delete = entityManager
                .createQuery("delete from ProcessedMessage p where p.consumer = :consumer"
                        + " and p.messageId in :ids and p.acknowledgedAt <= :cutoff"
                        + NOT_PARKED
                        + (spared.isEmpty() ? "" : " and p.messageId not in :spared"))
                .setParameter("consumer", consumer)
                .setParameter("ids", stored(messageIds))
                .setParameter("cutoff", utc(cutoff));
        if (!spared.isEmpty()) {
            delete.setParameter("spared", stored(spared));
        }
        return delete.executeUpdate();
    }

    /** A cheap query, to learn whether the database answers again; throws when it does not. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public void ping() {
        entityManager
                .createQuery("select count(p) from ProcessedMessage p where p.consumer = ''", Long.class)
                .getSingleResult();
    }

    /**
     * Counts one consumer's rows: the unconfirmed ones, which the purge's index holds apart, and the
     * acknowledged ones as the purge keeps their count (counted here only where it is not kept yet, or
     * where the table has no column for it). The purge calls it once per run and everybody else reads
     * that figure, rather than each request reading (and, on Derby, share-locking) the rows the purge is
     * updating.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public IdTableCounts count(String consumer) {
        Instant countedAt = clock.instant();
        long acknowledged = acknowledgedCounts()
                .flatMap(counts -> counts.figure(consumer))
                .orElseGet(
                        () -> context.getBusinessObject(ProcessedMessages.class).countAcknowledged(consumer));
        LocalDateTime oldest = entityManager
                .createQuery(
                        "select min(p.processedAt) from ProcessedMessage p where p.consumer = :consumer"
                                + " and p.acknowledgedAt is null",
                        LocalDateTime.class)
                .setParameter("consumer", consumer)
                .getSingleResult();
        return new IdTableCounts(
                count(consumer, "p.acknowledgedAt is null"),
                acknowledged,
                oldest == null ? null : oldest.toInstant(ZoneOffset.UTC),
                countedAt);
    }

    /**
     * Counts one consumer's acknowledged IDs, for {@link #count} where their count is not kept: in a
     * transaction of its own, that holds the count's lock from its first statement, if the table keeps
     * counts, and keeps the count from then on.
     */
    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public long countAcknowledged(String consumer) {
        LongSupplier counted = () -> count(consumer, "p.acknowledgedAt is not null");
        return acknowledgedCounts()
                .flatMap(counts -> counts.kept(consumer, counted))
                .orElseGet(counted::getAsLong);
    }

    private long count(String consumer, String condition) {
        return entityManager
                .createQuery(
                        "select count(p) from ProcessedMessage p where p.consumer = :consumer and " + condition,
                        Long.class)
                .setParameter("consumer", consumer)
                .getSingleResult();
    }

    /**
     * ID order for unconfirmed rows, spelt so that the database reads each page straight from the purge
     * index {@code (CONSUMER, ACKNOWLEDGED_AT, MESSAGE_ID)}. Every such row's time is null, so ordering by
     * the time first changes nothing, but the databases read it differently: PostgreSQL follows the index
     * only when told the time's order too (by the ID alone it sorted every unconfirmed row for each page),
     * MariaDB only when told the ID's alone (with the time it sorted them).
     */
    private String unconfirmedInIdOrder() {
        if (unconfirmedOrder == null) {
            try (Connection connection = database.getConnection()) {
                unconfirmedOrder = "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())
                        ? " order by p.acknowledgedAt, p.messageId"
                        : " order by p.messageId";
            } catch (SQLException e) {
                throw new IllegalStateException("the database did not say its name: " + e, e);
            }
        }
        return unconfirmedOrder;
    }

    private Optional<AcknowledgedCounts> acknowledgedCounts() {
        if (acknowledgedCounts.isEmpty()) {
            try (Connection connection = database.getConnection()) {
                if (AcknowledgedCounts.haveTheirColumn(connection)) {
                    acknowledgedCounts = Optional.of(new AcknowledgedCounts(entityManager));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("the database did not describe EO_CONSUMER: " + e, e);
            }
        }
        return acknowledgedCounts;
    }

    /** A parked message's ID stays, so that replaying it is refused once processed. */
    private static final String NOT_PARKED = " and not exists (select k.id from ParkedMessage k"
            + " where k.consumer = p.consumer and k.messageId = p.messageId)";

    private static List<String> stored(Collection<String> messageIds) {
        return messageIds.stream().map(StoredIds::stored).toList();
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** How a duplicate's ID came to be in the table. */
    public enum Duplicate {
        /** An earlier delivery committed before this one began. */
        ALREADY_COMMITTED,
        /** A concurrent delivery of the same ID committed first. */
        LOST_RACE,
        /** The ID was processed before with another payload: a different message reusing the ID. */
        CONFLICTING_PAYLOAD
    }
}
