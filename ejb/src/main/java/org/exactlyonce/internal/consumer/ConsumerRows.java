package org.exactlyonce.internal.consumer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.logging.Logger;

/** The consumers' recorded destinations in plain JDBC, on the caller's connection and in its transaction. */
public final class ConsumerRows {

    private static final String INSERT =
            "INSERT INTO EO_CONSUMER (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT) VALUES (?, ?, ?, ?)";

    private static final String FIND =
            "SELECT DESTINATION_TYPE, DESTINATION, REGISTERED_AT FROM EO_CONSUMER WHERE CONSUMER = ?";

    // an update that changes nothing locks the row, as the purge's transactions lock it first
    private static final String LOCK = "UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = ACKNOWLEDGED_IDS WHERE CONSUMER = ?";

    private static final String DROP_KNOWN_IDS = "DELETE FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ? AND MESSAGE_ID IN"
            + " (SELECT MESSAGE_ID FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ?)";

    private static final String MOVE_IDS = "UPDATE EO_PROCESSED_MESSAGE SET CONSUMER = ? WHERE CONSUMER = ?";

    private static final String MOVE_PARKED = "UPDATE EO_PARKED_MESSAGE SET CONSUMER = ? WHERE CONSUMER = ?"
            + " AND (JMS_MESSAGE_ID IS NULL OR JMS_MESSAGE_ID NOT IN"
            + " (SELECT JMS_MESSAGE_ID FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID IS NOT NULL))";

    // NULL: counted whole by the purge's next run (processed.AcknowledgedCounts)
    private static final String RECOUNT = "UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = NULL WHERE CONSUMER = ?";

    private static final String FORGET = "DELETE FROM EO_CONSUMER WHERE CONSUMER = ?";

    private static final String ANY_ID = "SELECT 1 FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ?";

    private static final String ANY_PARKED = "SELECT 1 FROM EO_PARKED_MESSAGE WHERE CONSUMER = ?";

    private static final Logger LOG = Logger.getLogger(ConsumerRows.class.getName());

    private ConsumerRows() {}

    /**
     * What a consumer took over from a name it had before.
     *
     * @param ids the previous name's IDs, now the consumer's
     * @param processedUnderBoth IDs recorded under both names, dropped from the previous one: their
     *     messages were processed by each name
     * @param parked the previous name's parked messages, now the consumer's
     */
    public record Adoption(String consumer, String previous, int ids, int processedUnderBoth, int parked) {

        public boolean movedAnything() {
            return ids + processedUnderBoth + parked > 0;
        }

        /** Logs what moved, and warns of IDs processed under both names; says nothing when nothing moved. */
        public void report() {
            if (movedAnything()) {
                LOG.info(() -> consumer + " adopted " + ids + " IDs and " + parked
                        + " parked messages of its previous name '" + previous + "'");
            }
            if (processedUnderBoth > 0) {
                LOG.warning(() -> processedUnderBoth + " IDs were processed by both " + consumer
                        + " and its previous name '" + previous + "': servers ran the two names at once");
            }
        }
    }

    /** Warns that a previous name is not adopted, as {@link #adopt} found it recorded for another destination. */
    public static void reportForeign(ConsumerDestination consumer, String previous) {
        LOG.warning(() -> consumer.consumer() + " does not adopt the IDs of its previous name '" + previous
                + "': the database records that name for another destination than " + consumer);
    }

    /**
     * Moves the IDs and parked messages recorded under a consumer's previous name to the consumer, and
     * forgets the previous name, in the caller's transaction; a parked message that both names hold
     * stays with the previous one. Nothing moves when the previous name is recorded for another
     * destination than the consumer's: its IDs are another stream's. The consumer's own row is locked
     * first, as the purge's transactions lock it before they change its IDs. A previous name that is
     * neither recorded nor holds anything, as every one does once adopted, costs two indexed reads and
     * takes no lock: the purge asks at each run.
     *
     * @param consumer the consumer as recorded
     * @return what moved; empty when the previous name reads another destination
     */
    public static Optional<Adoption> adopt(Connection connection, String previous, ConsumerDestination consumer)
            throws SQLException {
        Optional<ConsumerDestination> recorded = find(connection, previous);
        if (recorded.isPresent() && !recorded.get().readsTheSameAs(consumer)) {
            return Optional.empty();
        }
        String name = consumer.consumer();
        if (recorded.isEmpty()
                && !holdsAny(connection, ANY_ID, previous)
                && !holdsAny(connection, ANY_PARKED, previous)) {
            return Optional.of(new Adoption(name, previous, 0, 0, 0));
        }
        update(connection, LOCK, name);
        int processedUnderBoth = update(connection, DROP_KNOWN_IDS, previous, name);
        int ids = update(connection, MOVE_IDS, name, previous);
        int parked = update(connection, MOVE_PARKED, name, previous, name);
        if (ids + processedUnderBoth > 0) {
            update(connection, RECOUNT, name);
        }
        update(connection, FORGET, previous);
        return Optional.of(new Adoption(name, previous, ids, processedUnderBoth, parked));
    }

    private static boolean holdsAny(Connection connection, String select, String consumer) throws SQLException {
        try (PreparedStatement any = connection.prepareStatement(select)) {
            any.setString(1, consumer);
            any.setMaxRows(1);
            try (ResultSet found = any.executeQuery()) {
                return found.next();
            }
        }
    }

    private static int update(Connection connection, String sql, String... parameters) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setString(i + 1, parameters[i]);
            }
            return update.executeUpdate();
        }
    }

    /** Records the consumer's destination; a unique violation when one is recorded already. */
    public static void insert(Connection connection, ConsumerDestination destination) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, destination.consumer());
            insert.setString(2, destination.kind().name());
            insert.setString(3, destination.destination());
            insert.setTimestamp(4, Timestamp.valueOf(destination.registeredAt()));
            insert.executeUpdate();
        }
    }

    public static Optional<ConsumerDestination> find(Connection connection, String consumer) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(FIND)) {
            select.setString(1, consumer);
            try (ResultSet found = select.executeQuery()) {
                return found.next()
                        ? Optional.of(new ConsumerDestination(
                                consumer,
                                ConsumerDestination.Kind.valueOf(found.getString(1)),
                                found.getString(2),
                                found.getTimestamp(3).toLocalDateTime().toInstant(ZoneOffset.UTC)))
                        : Optional.empty();
            }
        }
    }
}
