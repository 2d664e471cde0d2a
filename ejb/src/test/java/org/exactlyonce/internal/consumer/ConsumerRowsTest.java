package org.exactlyonce.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import org.exactlyonce.internal.consumer.ConsumerDestination.Kind;
import org.exactlyonce.internal.processed.SqlStates;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A renamed consumer adopts what its previous name holds, on the engine's Derby tables. */
class ConsumerRowsTest {

    private static final String OLD = "orders/orders-ejb-1.0/OrderConsumer";
    private static final String NEW = "org.example.orders.OrderConsumer";
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    private final ConsumerDestination orders = new ConsumerDestination(NEW, Kind.QUEUE, "Orders", NOW);

    private DataSource database;

    @BeforeEach
    void createTheTables() throws Exception {
        database = EngineTables.inNewDerby("consumer-rows");
    }

    @Test
    void aRenamedConsumerAdoptsTheIdsAndParkedMessagesOfItsPreviousName() throws Exception {
        try (Connection connection = database.getConnection()) {
            ConsumerRows.insert(connection, new ConsumerDestination(OLD, Kind.QUEUE, "Orders", NOW));
            ConsumerRows.insert(connection, orders);
            processed(connection, OLD, "order-1");
            processed(connection, OLD, "order-2");
            processed(connection, NEW, "order-2"); // processed under both names
            EngineTables.park(connection, OLD, "ID:parked-1");

            ConsumerRows.Adoption adoption =
                    ConsumerRows.adopt(connection, OLD, orders).orElseThrow();

            assertEquals(new ConsumerRows.Adoption(NEW, OLD, 1, 1, 1), adoption);
            assertEquals(0, count(connection, "EO_PROCESSED_MESSAGE", OLD));
            assertEquals(2, count(connection, "EO_PROCESSED_MESSAGE", NEW));
            assertEquals(1, count(connection, "EO_PARKED_MESSAGE", NEW));
            assertEquals(Optional.empty(), ConsumerRows.find(connection, OLD), "the previous name is forgotten");
            SQLException duplicate = assertThrows(SQLException.class, () -> processed(connection, NEW, "order-1"));
            assertTrue(
                    SqlStates.isUniqueViolation(duplicate), "an ID the previous name processed is known: " + duplicate);
        }
    }

    @Test
    void aPreviousNameRecordedForAnotherDestinationKeepsItsIds() throws Exception {
        try (Connection connection = database.getConnection()) {
            ConsumerRows.insert(connection, new ConsumerDestination(OLD, Kind.QUEUE, "Invoices", NOW));
            ConsumerRows.insert(connection, orders);
            processed(connection, OLD, "invoice-1");

            assertEquals(Optional.empty(), ConsumerRows.adopt(connection, OLD, orders));
            assertEquals(1, count(connection, "EO_PROCESSED_MESSAGE", OLD));
            assertEquals(0, count(connection, "EO_PROCESSED_MESSAGE", NEW));
            assertTrue(ConsumerRows.find(connection, OLD).isPresent());
        }
    }

    /** IDs a server still running the old name recorded after the first adoption forgot that name. */
    @Test
    void idsRecordedUnderAPreviousNameAfterItWasForgottenAreAdoptedToo() throws Exception {
        try (Connection connection = database.getConnection()) {
            ConsumerRows.insert(connection, orders);
            processed(connection, OLD, "order-3");

            assertEquals(
                    new ConsumerRows.Adoption(NEW, OLD, 1, 0, 0),
                    ConsumerRows.adopt(connection, OLD, orders).orElseThrow());
            assertEquals(1, count(connection, "EO_PROCESSED_MESSAGE", NEW));
        }
    }

    @Test
    void aPreviousNameThatHoldsNothingMovesNothing() throws Exception {
        try (Connection connection = database.getConnection()) {
            ConsumerRows.insert(connection, orders);

            assertFalse(
                    ConsumerRows.adopt(connection, OLD, orders).orElseThrow().movedAnything());
        }
    }

    private static void processed(Connection connection, String consumer, String messageId) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT) VALUES (?, ?, ?)")) {
            insert.setString(1, consumer);
            insert.setString(2, messageId);
            insert.setTimestamp(3, Timestamp.from(NOW));
            insert.executeUpdate();
        }
    }

    private static int count(Connection connection, String table, String consumer) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE CONSUMER = ?")) {
            select.setString(1, consumer);
            try (ResultSet counted = select.executeQuery()) {
                counted.next();
                return counted.getInt(1);
            }
        }
    }
}
