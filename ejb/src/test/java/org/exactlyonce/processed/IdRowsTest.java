package org.exactlyonce.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.exactlyonce.processed.IdRows.IdRow;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The insert every delivery makes, on Derby: the primary key refuses an ID recorded before, and a broker
 * message parked before is not recorded, whatever the broker counts its delivery (a crash lost the
 * park's acknowledgement, and a broker restart the count).
 */
class IdRowsTest {

    private static final String CONSUMER = "id-rows-test";

    private EmbeddedDataSource database;

    @BeforeEach
    void emptyTables() throws Exception {
        database = EngineTables.inNewDerby("id-rows");
    }

    @Test
    void aFirstDeliveryIsRecorded() throws Exception {
        assertTrue(insert(CONSUMER, "order-1", message("ID:1", "credit 100")));

        assertEquals(1, rows(CONSUMER, "order-1"));
    }

    @Test
    void anIdRecordedBeforeIsRefusedByTheKey() throws Exception {
        insert(CONSUMER, "order-1", message("ID:1", "credit 100"));

        assertFalse(insert(CONSUMER, "order-1", message("ID:2", "credit 100")));
        assertEquals(1, rows(CONSUMER, "order-1"));
    }

    @Test
    void aParkedMessageThatComesBackCountedAsAFirstDeliveryIsNotRecorded() throws Exception {
        park(CONSUMER, "ID:1");

        assertFalse(insert(CONSUMER, "order-1", message("ID:1", "credit 100")));
        assertEquals(0, rows(CONSUMER, "order-1"));
    }

    @Test
    void anotherMessageWithTheIdOfAParkedOneIsRecorded() throws Exception {
        park(CONSUMER, "ID:1"); // the producer fixed the cause and sent the ID again

        assertTrue(insert(CONSUMER, "order-1", message("ID:2", "credit 100")));
    }

    @Test
    void aMessageParkedByAnotherConsumerIsRecorded() throws Exception {
        park("another-consumer", "ID:1");

        assertTrue(insert(CONSUMER, "order-1", message("ID:1", "credit 100")));
    }

    @Test
    void aMessageWithoutAJmsMessageIdIsRecorded() throws Exception {
        park(CONSUMER, null);

        assertTrue(insert(CONSUMER, "order-1", message(null, "credit 100")));
    }

    private boolean insert(String consumer, String messageId, Message message) throws Exception {
        try (Connection connection = database.getConnection()) {
            return IdRows.of(connection)
                    .insert(connection, consumer, new IdRow(messageId, message, "broker-a"), Instant.now());
        }
    }

    private long rows(String consumer, String messageId) throws Exception {
        try (Connection connection = database.getConnection();
                PreparedStatement count = connection.prepareStatement(
                        "SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ? AND MESSAGE_ID = ?")) {
            count.setString(1, consumer);
            count.setString(2, StoredIds.stored(messageId));
            try (ResultSet result = count.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private void park(String consumer, String jmsMessageId) throws Exception {
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO EO_PARKED_MESSAGE (CONSUMER,"
                        + " JMS_MESSAGE_ID, REASON, DETAIL, BODY_TYPE, BODY_PREVIEW, HEADERS, PROPERTIES, ATTEMPTS,"
                        + " PARKED_AT) VALUES (?, ?, 'KEEPS_FAILING', 'failed', 'TEXT', '', ?, ?, 3, ?)")) {
            insert.setString(1, consumer);
            insert.setString(2, jmsMessageId);
            insert.setBytes(3, new byte[0]);
            insert.setBytes(4, new byte[0]);
            insert.setTimestamp(5, new Timestamp(0));
            insert.executeUpdate();
        }
    }

    /** A text message that answers its JMS message ID and its body, all the insert reads. */
    private static Message message(String jmsMessageId, String body) {
        return (Message) Proxy.newProxyInstance(
                TextMessage.class.getClassLoader(), new Class<?>[] {TextMessage.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getJMSMessageID":
                            return jmsMessageId;
                        case "getText":
                            return body;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }
}
