package org.exactlyonce.internal.delivery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import org.exactlyonce.internal.processed.StoredIds;
import org.exactlyonce.internal.processed.StoredTimes;

/**
 * The table of deliveries a server crash or a failed processing interrupted ({@code
 * EO_INTERRUPTED_DELIVERY}), in plain JDBC on the caller's connection and in its transaction: how many
 * crashes and how many failures each message's deliveries met.
 */
final class InterruptedRows {

    private static final String COUNT_ONE_MORE_CRASH = "UPDATE EO_INTERRUPTED_DELIVERY SET CRASHES = CRASHES + 1,"
            + " LAST_INTERRUPTED_AT = ? WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FIRST_CRASH = "INSERT INTO EO_INTERRUPTED_DELIVERY"
            + " (CONSUMER, MESSAGE_ID, CRASHES, FAILURES, LAST_INTERRUPTED_AT) VALUES (?, ?, 1, 0, ?)";

    private static final String COUNT_ONE_MORE_FAILURE = "UPDATE EO_INTERRUPTED_DELIVERY SET FAILURES = FAILURES + 1,"
            + " LAST_INTERRUPTED_AT = ? WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FIRST_FAILURE = "INSERT INTO EO_INTERRUPTED_DELIVERY"
            + " (CONSUMER, MESSAGE_ID, CRASHES, FAILURES, LAST_INTERRUPTED_AT) VALUES (?, ?, 0, 1, ?)";

    private static final String CRASHES =
            "SELECT CRASHES FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FAILURES =
            "SELECT FAILURES FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FORGET = "DELETE FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private InterruptedRows() {}

    /** Counts one more crash for each of the consumer's messages. */
    static void countCrash(Connection database, String consumer, Collection<String> messageIds, Instant now)
            throws SQLException {
        for (String messageId : messageIds) {
            countOneMore(database, COUNT_ONE_MORE_CRASH, FIRST_CRASH, consumer, messageId, now);
        }
    }

    /**
     * Counts one more failed delivery of the message.
     *
     * @return the failures its deliveries met, this one among them
     */
    static int countFailure(Connection database, String consumer, String messageId, Instant now) throws SQLException {
        countOneMore(database, COUNT_ONE_MORE_FAILURE, FIRST_FAILURE, consumer, messageId, now);
        return count(database, FAILURES, consumer, messageId);
    }

    private static void countOneMore(
            Connection database, String update, String first, String consumer, String messageId, Instant now)
            throws SQLException {
        Timestamp at = StoredTimes.utc(now);
        int counted;
        try (PreparedStatement statement = database.prepareStatement(update)) {
            statement.setTimestamp(1, at);
            statement.setString(2, consumer);
            statement.setString(3, StoredIds.stored(messageId));
            counted = statement.executeUpdate();
        }
        if (counted == 0) {
            try (PreparedStatement insert = database.prepareStatement(first)) {
                insert.setString(1, consumer);
                insert.setString(2, StoredIds.stored(messageId));
                insert.setTimestamp(3, at);
                insert.executeUpdate();
            }
        }
    }

    /** The crashes the message's deliveries met; 0 when none is known. */
    static int crashes(Connection database, String consumer, String messageId) throws SQLException {
        return count(database, CRASHES, consumer, messageId);
    }

    private static int count(Connection database, String query, String consumer, String messageId) throws SQLException {
        try (PreparedStatement select = database.prepareStatement(query)) {
            select.setString(1, consumer);
            select.setString(2, StoredIds.stored(messageId));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getInt(1) : 0;
            }
        }
    }

    /** Forgets the message's crashes and failures: it was processed, dropped or parked. */
    static void forget(Connection database, String consumer, String messageId) throws SQLException {
        try (PreparedStatement delete = database.prepareStatement(FORGET)) {
            delete.setString(1, consumer);
            delete.setString(2, StoredIds.stored(messageId));
            delete.executeUpdate();
        }
    }
}
