package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.exactlyonce.internal.processed.IdRows.IdRow;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The insert every delivery makes, on Derby, in both its forms: one statement (Derby's spelling) and a
 * look at the parked messages before a plain insert (a database whose spelling the engine does not
 * know). The primary key refuses an ID recorded before, and a broker message parked before is not
 * recorded, whatever the broker counts its delivery (a crash lost the park's acknowledgement, and a
 * broker restart the count).
 */
class IdRowsTest {

    private static final String CONSUMER = "id-rows-test";

    private EmbeddedDataSource tables;

    @BeforeEach
    void emptyTables() throws Exception {
        tables = EngineTables.inNewDerby("id-rows");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void aFirstDeliveryIsRecorded(String product) throws Exception {
        assertTrue(insert(product, CONSUMER, "order-1", message("ID:1", "credit 100")));

        assertEquals(1, rows(CONSUMER, "order-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void anIdRecordedBeforeIsRefusedByTheKey(String product) throws Exception {
        insert(product, CONSUMER, "order-1", message("ID:1", "credit 100"));

        assertFalse(insert(product, CONSUMER, "order-1", message("ID:2", "credit 100")));
        assertEquals(1, rows(CONSUMER, "order-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void aParkedMessageThatComesBackCountedAsAFirstDeliveryIsNotRecorded(String product) throws Exception {
        park(CONSUMER, "ID:1");

        assertFalse(insert(product, CONSUMER, "order-1", message("ID:1", "credit 100")));
        assertEquals(0, rows(CONSUMER, "order-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void anotherMessageWithTheIdOfAParkedOneIsRecorded(String product) throws Exception {
        park(CONSUMER, "ID:1"); // the producer fixed the cause and sent the ID again

        assertTrue(insert(product, CONSUMER, "order-1", message("ID:2", "credit 100")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void aMessageParkedByAnotherConsumerIsRecorded(String product) throws Exception {
        park("another-consumer", "ID:1");

        assertTrue(insert(product, CONSUMER, "order-1", message("ID:1", "credit 100")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void aMessageWithoutAJmsMessageIdIsRecorded(String product) throws Exception {
        park(CONSUMER, null);

        assertTrue(insert(product, CONSUMER, "order-1", message(null, "credit 100")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Apache Derby", "a database of unknown spelling"})
    void aValueLongerThanItsColumnIsRefusedNotCut(String product) throws Exception {
        SQLException refused = assertThrows(
                SQLException.class,
                () -> insert(product, CONSUMER, "order-1", message("ID:" + "9".repeat(100), "credit 100")));

        assertEquals("22001", refused.getSQLState());
    }

    private boolean insert(String product, String consumer, String messageId, Message message) throws Exception {
        try (Connection connection = tables.getConnection()) {
            return IdRows.forDatabase(product)
                    .insert(connection, consumer, new IdRow(messageId, message, "broker-a"), Instant.now());
        }
    }

    private long rows(String consumer, String messageId) throws Exception {
        try (Connection connection = tables.getConnection();
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
        try (Connection connection = tables.getConnection()) {
            EngineTables.park(connection, consumer, jmsMessageId);
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
