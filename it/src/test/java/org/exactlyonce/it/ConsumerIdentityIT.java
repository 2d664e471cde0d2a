package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A consumer name is recorded with the destination it reads, and a second destination for the name is
 * refused. Runs before any other test of its server has sent the audit consumer a message: the server
 * checks a consumer's destination at its first delivery.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsumerIdentityIT {

    private static final String AUDIT_CONSUMER = "exactly-once-sample/ledger/AuditLedgerConsumer";
    private static final Duration DELIVERIES = Duration.ofSeconds(60);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "acct-" + UUID.randomUUID();
    private final String database = System.getProperty("it.database-url");
    private final String user = System.getProperty("it.database-user", "postgres");

    /** Another consumer took the name first, on another queue: its IDs are not to be mixed with these. */
    @Test
    @Order(1)
    void aNameRecordedForAnotherQueueIsRefusedAndTheMessageStaysWithTheBroker() throws SQLException {
        String id = newId();
        record("DELETE FROM EO_CONSUMER WHERE CONSUMER = ?");
        record("INSERT INTO EO_CONSUMER (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT)"
                + " VALUES (?, 'QUEUE', 'SomeOtherQueue', ?)");
        try {
            ledger.sendCreditAndAudit(id, account, 3);

            Await.until(
                    "the broker gives the refused message up to its exception destination",
                    DELIVERIES,
                    () -> ledger.deadLetterIds().contains(id));
            assertEquals(0, ledger.balance("audit-" + account), "never processed under a name another consumer has");
            Await.untilEquals("the ledger's own consumer books it", 3L, DELIVERIES, () -> ledger.balance(account));
        } finally {
            record("DELETE FROM EO_CONSUMER WHERE CONSUMER = ?");
        }
    }

    @Test
    @Order(2)
    void theFirstDeliveryRecordsTheQueueTheConsumerReads() throws SQLException {
        ledger.sendCreditAndAudit(newId(), account, 1);

        Await.untilEquals("the audit books it", 1L, DELIVERIES, () -> ledger.balance("audit-" + account));
        try (Connection connection = DriverManager.getConnection(database, user, "");
                PreparedStatement query = connection.prepareStatement(
                        "SELECT DESTINATION_TYPE, DESTINATION FROM EO_CONSUMER WHERE CONSUMER = ?")) {
            query.setString(1, AUDIT_CONSUMER);
            try (var row = query.executeQuery()) {
                row.next();
                assertEquals("QUEUE", row.getString(1));
                assertTrue(row.getString(2).endsWith("LedgerAudit"), row.getString(2)); // WildFly may prefix jms.queue.
            }
        }
    }

    private void record(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(database, user, "");
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, AUDIT_CONSUMER);
            if (sql.contains("REGISTERED_AT")) {
                statement.setTimestamp(2, Timestamp.from(Instant.now()));
            }
            statement.executeUpdate();
        }
    }
}
