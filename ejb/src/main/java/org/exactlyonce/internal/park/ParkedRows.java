package org.exactlyonce.internal.park;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.processed.SqlStates;
import org.exactlyonce.internal.processed.StoredIds;
import org.exactlyonce.internal.processed.StoredTimes;

/**
 * Parks messages in plain JDBC, on the caller's connection and in its transaction: the one way every
 * delivery parks; the rows are those {@link ParkedMessages} lists, replays and discards.
 */
public final class ParkedRows {

    private static final String INSERT = "INSERT INTO EO_PARKED_MESSAGE (CONSUMER, MESSAGE_ID, JMS_MESSAGE_ID,"
            + " QUEUE_NAME, REASON, DETAIL, BODY_TYPE, BODY, BODY_PREVIEW, HEADERS, PROPERTIES, ATTEMPTS, SENT_AT,"
            + " PARKED_AT) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String PARKED_AMONG =
            "SELECT JMS_MESSAGE_ID FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID IN (";

    /** A batch of up to 10,000 messages asks in queries of this many: a statement every database takes. */
    private static final int IDS_PER_QUERY = 500;

    private ParkedRows() {}

    /**
     * Parks the message, in the caller's transaction; the caller commits, then lets the message be
     * acknowledged.
     *
     * @param messageId the application's ID, or {@code null} when the message has no usable one
     * @param attempts the deliveries of the message, this one included
     * @return false when a unique key refused the row: then the transaction can only be rolled back,
     *     and {@link #parkedAmong} tells whether it was this broker message's own
     */
    public static boolean park(
            Connection connection,
            String consumer,
            String messageId,
            Message message,
            int attempts,
            ParkReason reason,
            String detail,
            Instant now)
            throws SQLException, JMSException {
        ParkedMessage parked = ParkedMessage.of(consumer, messageId, message, attempts, reason, detail, now);
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, parked.consumer());
            insert.setString(2, messageId == null ? null : StoredIds.stored(messageId));
            insert.setString(3, parked.jmsMessageId());
            insert.setString(4, parked.queueName());
            insert.setString(5, parked.reason().name());
            insert.setString(6, parked.detail());
            insert.setString(7, parked.bodyType().name());
            insert.setBytes(8, parked.body());
            insert.setString(9, parked.bodyPreview());
            insert.setBytes(10, parked.headers().getBytes(StandardCharsets.UTF_8));
            insert.setBytes(11, parked.properties().getBytes(StandardCharsets.UTF_8));
            insert.setInt(12, parked.attempts());
            if (parked.sentAt() == null) {
                insert.setNull(13, Types.TIMESTAMP);
            } else {
                insert.setTimestamp(13, StoredTimes.utc(parked.sentAt()));
            }
            insert.setTimestamp(14, StoredTimes.utc(parked.parkedAt()));
            insert.executeUpdate();
        } catch (SQLException e) {
            if (SqlStates.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
        parked.log();
        return true;
    }

    /**
     * The JMS message IDs of those among the messages that are parked already, in one query: a batch
     * asks once, not once per message. Asked after an ID's insert recorded nothing (it leaves a parked
     * message out), and after {@link #park} met a unique key, where only the table's key on consumer
     * and broker message ID means that; any other key (an identity column behind its rows, say) kept
     * nothing.
     */
    public static Set<String> parkedAmong(Connection connection, String consumer, List<Message> messages)
            throws SQLException, JMSException {
        List<String> jmsMessageIds = new ArrayList<>();
        for (Message message : messages) {
            String jmsMessageId = message.getJMSMessageID();
            if (jmsMessageId != null) {
                jmsMessageIds.add(jmsMessageId);
            }
        }
        Set<String> parked = new HashSet<>();
        for (int from = 0; from < jmsMessageIds.size(); from += IDS_PER_QUERY) {
            parked.addAll(parkedOf(
                    connection,
                    consumer,
                    jmsMessageIds.subList(from, Math.min(from + IDS_PER_QUERY, jmsMessageIds.size()))));
        }
        return parked;
    }

    private static Set<String> parkedOf(Connection connection, String consumer, List<String> jmsMessageIds)
            throws SQLException {
        String query = PARKED_AMONG + String.join(", ", Collections.nCopies(jmsMessageIds.size(), "?")) + ")";
        Set<String> parked = new HashSet<>();
        try (PreparedStatement select = connection.prepareStatement(query)) {
            select.setString(1, consumer);
            for (int i = 0; i < jmsMessageIds.size(); i++) {
                select.setString(i + 2, jmsMessageIds.get(i));
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    parked.add(rows.getString(1));
                }
            }
        }
        return parked;
    }
}
