package org.exactlyonce.park;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.exactlyonce.processed.SqlStates;
import org.exactlyonce.processed.StoredIds;

/**
 * Parks messages in plain JDBC, on the caller's connection and in its transaction, for consumers that
 * run outside a persistence context (the batched receiver); the rows are those {@link ParkedMessages}
 * lists, replays and discards.
 */
public final class ParkedRows {

    private static final String INSERT = "INSERT INTO EO_PARKED_MESSAGE (CONSUMER, MESSAGE_ID, JMS_MESSAGE_ID,"
            + " QUEUE_NAME, REASON, DETAIL, BODY_TYPE, BODY, BODY_PREVIEW, HEADERS, PROPERTIES, ATTEMPTS, SENT_AT,"
            + " PARKED_AT) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String PARKED_BEFORE =
            "SELECT ID FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID = ?";

    private ParkedRows() {}

    /**
     * Parks the message, as {@link ParkedMessages#park} does.
     *
     * @return false when a unique key refused the row: then the transaction can only be rolled back,
     *     and {@link #wasParkedBefore} tells whether it was this broker message's own
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
                insert.setTimestamp(13, utc(parked.sentAt()));
            }
            insert.setTimestamp(14, utc(parked.parkedAt()));
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

    /** Whether this broker message is parked already, as {@link ParkedMessages#wasParkedBefore} tells. */
    public static boolean wasParkedBefore(Connection connection, String consumer, Message message)
            throws SQLException, JMSException {
        String jmsMessageId = message.getJMSMessageID();
        if (jmsMessageId == null) {
            return false;
        }
        try (PreparedStatement select = connection.prepareStatement(PARKED_BEFORE)) {
            select.setString(1, consumer);
            select.setString(2, jmsMessageId);
            try (ResultSet parked = select.executeQuery()) {
                return parked.next();
            }
        }
    }

    private static Timestamp utc(Instant at) {
        return Timestamp.valueOf(LocalDateTime.ofInstant(at, ZoneOffset.UTC));
    }
}
