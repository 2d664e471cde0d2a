package org.exactlyonce.internal.processed;

import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * How many of each consumer's IDs are acknowledged, kept in {@code EO_CONSUMER.ACKNOWLEDGED_IDS} by the
 * transactions that confirm and delete IDs, so that a purge run reports the figure without counting the
 * consumer's part of the table (ten million rows, read again every run). Every transaction that changes
 * the figure locks the consumer's row first, then changes the IDs, then the figure; the count that sets
 * the figure where there is none yet is taken under the same lock. So that count sees every change
 * committed before it and none after it, whichever server made them, and a change committed after it
 * adds to it; and since the lock comes first everywhere, none of them waits for another in a circle.
 */
final class AcknowledgedCounts {

    // an update that changes nothing: the one way to lock a row that PostgreSQL, MariaDB and Derby share
    private static final String LOCK = "UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = ACKNOWLEDGED_IDS WHERE CONSUMER = ?1";

    // NULL stays NULL: a figure not counted yet is counted whole, later
    private static final String ADD =
            "UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = ACKNOWLEDGED_IDS + ?1 WHERE CONSUMER = ?2";

    private static final String READ = "SELECT ACKNOWLEDGED_IDS FROM EO_CONSUMER WHERE CONSUMER = ?1";

    private static final String SET = "UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = ?1 WHERE CONSUMER = ?2";

    private final EntityManager entityManager;

    AcknowledgedCounts(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /**
     * Whether the connection's own schema's table has the figure's column: a table created by an earlier
     * {@code src/ddl} does not. (Not any schema's: a copy elsewhere with the column would make every
     * confirmation fail on this one.)
     */
    static boolean haveTheirColumn(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        // PostgreSQL keeps unquoted names in lower case, Derby in upper case, MariaDB as written
        for (List<String> names :
                List.of(List.of("EO_CONSUMER", "ACKNOWLEDGED_IDS"), List.of("eo_consumer", "acknowledged_ids"))) {
            try (ResultSet column =
                    metaData.getColumns(connection.getCatalog(), connection.getSchema(), names.get(0), names.get(1))) {
                if (column.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Locks the consumer's figure until the transaction ends: the first statement of a change. */
    void lock(String consumer) {
        entityManager.createNativeQuery(LOCK).setParameter(1, consumer).executeUpdate();
    }

    /** Adds the change a locked transaction made to the consumer's acknowledged IDs. */
    void add(String consumer, long change) {
        if (change != 0) {
            entityManager
                    .createNativeQuery(ADD)
                    .setParameter(1, change)
                    .setParameter(2, consumer)
                    .executeUpdate();
        }
    }

    /** The consumer's figure as last committed; empty when it is not kept yet or the consumer has no row. */
    Optional<Long> figure(String consumer) {
        return read(consumer).flatMap(figure -> figure);
    }

    /**
     * The consumer's figure, locked for the rest of the transaction; where it is not kept yet (a consumer
     * whose IDs the purge has not counted, or a row from before the column), counted now and kept from
     * then on. Empty when the consumer has no row: its destination is not recorded. The lock must be the
     * transaction's first statement: MariaDB's transactions read from a snapshot of their first read.
     */
    Optional<Long> kept(String consumer, LongSupplier count) {
        lock(consumer);
        Optional<Optional<Long>> row = read(consumer);
        if (row.isEmpty() || row.get().isPresent()) {
            return row.flatMap(figure -> figure);
        }
        long counted = count.getAsLong();
        entityManager
                .createNativeQuery(SET)
                .setParameter(1, counted)
                .setParameter(2, consumer)
                .executeUpdate();
        return Optional.of(counted);
    }

    /** Empty when the consumer has no row; else its figure, empty while it is not kept. */
    private Optional<Optional<Long>> read(String consumer) {
        List<?> row =
                entityManager.createNativeQuery(READ).setParameter(1, consumer).getResultList();
        return row.isEmpty()
                ? Optional.empty()
                : Optional.of(Optional.ofNullable((Number) row.get(0)).map(Number::longValue));
    }
}
