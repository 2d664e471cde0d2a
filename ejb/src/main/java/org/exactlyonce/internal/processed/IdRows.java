package org.exactlyonce.internal.processed;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.exactlyonce.internal.processed.ProcessedMessages.Duplicate;

/**
 * The processed-ID table's rows in plain JDBC, on the caller's connection and in its transaction: the
 * insert every delivery makes, one or a batch at a time, and the look at an ID the insert found there.
 * An instance holds the single insert as its data source's database spells it.
 */
public final class IdRows {

    private static final String COLUMNS =
            "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT, JMS_MESSAGE_ID, PAYLOAD_SHA256, BROKER)";

    private static final String INSERT = COLUMNS + " VALUES (?, ?, ?, ?, ?, ?)";

    private static final String UNLESS_PARKED =
            " WHERE NOT EXISTS (SELECT 1 FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID = ?)";

    private static final String PARKED = "SELECT 1 FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID = ?";

    /** Wide enough never to cut a value: the column's own length refuses one too long, as a plain insert does. */
    private static final String DERBY_TEXT = "CAST(? AS VARCHAR(32672))";

    private static final String EARLIER =
            "SELECT PAYLOAD_SHA256, PROCESSED_AT FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    /** How the database of the connections given spells the insert, learned from the first; {@code null} before. */
    private volatile Spelling spelling;

    /** The rows of one data source's database, whose spelling the first insert learns from its connection. */
    public IdRows() {}

    private IdRows(Spelling spelling) {
        this.spelling = spelling;
    }

    /** The rows of a database the driver names so. */
    static IdRows forDatabase(String databaseProduct) {
        return new IdRows(Spelling.of(databaseProduct));
    }

    /**
     * The ID's insert unless this broker message is parked, as one statement where the database's
     * spelling is known, so that a first delivery still costs one round trip: selecting parameters needs
     * no table on PostgreSQL, DUAL on MariaDB and MySQL, and a one-row table with typed parameters on
     * Derby. Elsewhere the parked messages are looked at first, a second statement. Either way a parked
     * message whose acknowledgement a crash lost is not recorded, whatever the broker counts its
     * delivery (Artemis counts a paged message's redelivery after its own restart as a first delivery).
     * Under read committed, as the shipped data sources run, the look waits for no delivery (Derby
     * holds its share locks for the statement only); under MariaDB's default repeatable read it takes a
     * shared gap lock, so a park may wait for the deliveries in flight.
     */
    private record Spelling(String insertUnlessParked) {

        /** @param databaseProduct the JDBC driver's name for the database */
        static Spelling of(String databaseProduct) {
            return new Spelling(
                    switch (databaseProduct) {
                        case "PostgreSQL" -> COLUMNS + " SELECT ?, ?, ?, ?, ?, ?" + UNLESS_PARKED;
                        case "MariaDB", "MySQL" -> COLUMNS + " SELECT ?, ?, ?, ?, ?, ? FROM DUAL" + UNLESS_PARKED;
                        case "Apache Derby" ->
                            COLUMNS + " SELECT " + DERBY_TEXT + ", " + DERBY_TEXT
                                    + ", CAST(? AS TIMESTAMP), " + DERBY_TEXT + ", " + DERBY_TEXT + ", " + DERBY_TEXT
                                    + " FROM SYSIBM.SYSDUMMY1" + UNLESS_PARKED;
                        default -> null; // a look at the parked messages, then a plain insert
                    });
        }
    }

    private Spelling spellingOf(Connection connection) throws SQLException {
        Spelling known = spelling;
        if (known == null) {
            known = Spelling.of(connection.getMetaData().getDatabaseProductName());
            spelling = known;
        }
        return known;
    }

    /** A delivery's ID to record: the message's ID, the message, and the broker that delivered it, when known. */
    public record IdRow(String messageId, Message message, String broker) {}

    /**
     * Inserts one ID, unless this broker message is parked.
     *
     * @return whether it recorded the ID; false when the message is parked, or when the ID is in the
     *     table already, and then the transaction can only be rolled back
     */
    public boolean insert(Connection connection, String consumer, IdRow row, Instant at)
            throws SQLException, JMSException {
        try {
            String oneStatement = spellingOf(connection).insertUnlessParked();
            return oneStatement == null
                    ? lookThenInsert(connection, consumer, row, at)
                    : insertInOneStatement(connection, oneStatement, consumer, row, at);
        } catch (SQLException e) {
            if (SqlStates.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
    }

    private static boolean insertInOneStatement(
            Connection connection, String insertUnlessParked, String consumer, IdRow row, Instant at)
            throws SQLException, JMSException {
        try (PreparedStatement insert = connection.prepareStatement(insertUnlessParked)) {
            String jmsMessageId = bind(insert, consumer, row, at);
            insert.setString(7, consumer);
            insert.setString(8, jmsMessageId);
            return insert.executeUpdate() == 1;
        }
    }

    private static boolean lookThenInsert(Connection connection, String consumer, IdRow row, Instant at)
            throws SQLException, JMSException {
        String jmsMessageId = jmsMessageIdOf(row.message());
        if (jmsMessageId != null && isParked(connection, consumer, jmsMessageId)) {
            return false;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            bind(insert, consumer, row, at);
            insert.executeUpdate();
            return true;
        }
    }

    private static boolean isParked(Connection connection, String consumer, String jmsMessageId) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(PARKED)) {
            select.setString(1, consumer);
            select.setString(2, jmsMessageId);
            try (ResultSet parked = select.executeQuery()) {
                return parked.next();
            }
        }
    }

    /**
     * Inserts the IDs in one round trip, without asking the parked messages: a batch asks for all of
     * them before ({@code ParkedRows.parkedAmong}).
     *
     * @throws SQLException as well when one of them is in the table already ({@link
     *     SqlStates#isUniqueViolation}); then the transaction can only be rolled back
     */
    public static void insertAll(Connection connection, String consumer, List<IdRow> rows, Instant at)
            throws SQLException, JMSException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (IdRow row : rows) {
                bind(insert, consumer, row, at);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /**
     * Why an ID that {@link #insert} found in the table is there, read on a connection outside the
     * refused insert's transaction.
     *
     * @param deliveryBegan when the delivery that found it began
     */
    public static Duplicate earlierDelivery(
            Connection connection, String consumer, String messageId, Message message, Instant deliveryBegan)
            throws SQLException, JMSException {
        try (PreparedStatement select = connection.prepareStatement(EARLIER)) {
            select.setString(1, consumer);
            select.setString(2, StoredIds.stored(messageId));
            try (ResultSet earlier = select.executeQuery()) {
                if (!earlier.next()) {
                    return Duplicate.LOST_RACE; // the key said so; its row has been purged since
                }
                return duplicate(
                        earlier.getString(1),
                        earlier.getTimestamp(2).toLocalDateTime().toInstant(ZoneOffset.UTC),
                        message,
                        deliveryBegan);
            }
        }
    }

    /**
     * The rule for an ID found in the table, by what the table holds of its earlier delivery. An earlier
     * delivery without a fingerprint says nothing of its payload: a map, stream, object or plain message
     * recorded before those were fingerprinted.
     */
    static Duplicate duplicate(String earlierSha256, Instant earlierAt, Message message, Instant deliveryBegan)
            throws JMSException {
        if (earlierSha256 != null && !earlierSha256.equals(PayloadFingerprints.of(message))) {
            return Duplicate.CONFLICTING_PAYLOAD;
        }
        return earlierAt.isBefore(deliveryBegan) ? Duplicate.ALREADY_COMMITTED : Duplicate.LOST_RACE;
    }

    /** @return the message's JMS message ID, as bound */
    private static String bind(PreparedStatement insert, String consumer, IdRow row, Instant at)
            throws SQLException, JMSException {
        String jmsMessageId = jmsMessageIdOf(row.message());
        insert.setString(1, consumer);
        insert.setString(2, StoredIds.stored(row.messageId()));
        insert.setTimestamp(3, Timestamp.valueOf(LocalDateTime.ofInstant(at, ZoneOffset.UTC)));
        insert.setString(4, jmsMessageId);
        insert.setString(5, PayloadFingerprints.of(row.message()));
        insert.setString(6, row.broker());
        return jmsMessageId;
    }

    private static String jmsMessageIdOf(Message message) {
        try {
            return message.getJMSMessageID();
        } catch (JMSException e) {
            return null; // only informational: the ID that counts is the application's
        }
    }
}
