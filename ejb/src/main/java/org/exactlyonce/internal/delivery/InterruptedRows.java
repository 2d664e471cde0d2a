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
 * The table of deliveries a server crash interrupted ({@code EO_INTERRUPTED_DELIVERY}), in plain JDBC on
 * the caller's connection and in its transaction: how many crashes each message's deliveries met.
 */
final class InterruptedRows {

    private static final String COUNT_ONE_MORE = "UPDATE EO_INTERRUPTED_DELIVERY SET CRASHES = CRASHES + 1,"
            + " LAST_CRASH_AT = ? WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FIRST =
            "INSERT INTO EO_INTERRUPTED_DELIVERY (CONSUMER, MESSAGE_ID, CRASHES, LAST_CRASH_AT) VALUES (?, ?, 1, ?)";

    private static final String CRASHES =
            "SELECT CRASHES FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private static final String FORGET = "DELETE FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ? AND MESSAGE_ID = ?";

    private InterruptedRows() {}

    /** Counts one more crash for each of the consumer's messages. */
    static void countCrash(Connection database, String consumer, Collection<String> messageIds, Instant now)
            throws SQLException {
        Timestamp at = StoredTimes.utc(now);
        for (String messageId : messageIds) {
            int counted;
            try (PreparedStatement update = database.prepareStatement(COUNT_ONE_MORE)) {
                update.setTimestamp(1, at);
                update.setString(2, consumer);
                update.setString(3, StoredIds.stored(messageId));
                counted = update.executeUpdate();
            }
            if (counted == 0) {
                try (PreparedStatement insert = database.prepareStatement(FIRST)) {
                    insert.setString(1, consumer);
                    insert.setString(2, StoredIds.stored(messageId));
                    insert.setTimestamp(3, at);
                    insert.executeUpdate();
                }
            }
        }
    }

    /** The crashes the message's deliveries met; 0 when none is known. */
    static int crashes(Connection database, String consumer, String messageId) throws SQLException {
        try (PreparedStatement select = database.prepareStatement(CRASHES)) {
            select.setString(1, consumer);
            select.setString(2, StoredIds.stored(messageId));
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getInt(1) : 0;
            }
        }
    }

    /** Forgets the message's crashes: it was processed, dropped or parked. */
    static void forget(Connection database, String consumer, String messageId) throws SQLException {
        try (PreparedStatement delete = database.prepareStatement(FORGET)) {
            delete.setString(1, consumer);
            delete.setString(2, StoredIds.stored(messageId));
            delete.executeUpdate();
        }
    }
}
