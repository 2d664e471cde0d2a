package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.exactlyonce.ParkReason;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.park.ParkedMessage;
import org.exactlyonce.internal.park.ParkedRows;
import org.exactlyonce.internal.processed.ProcessedMessages.Duplicate;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The processed-ID store inside a real server, on the server's own database and transaction manager:
 * what no unit test can show, since the primary key, the collation and the transaction decide. The test
 * archive holds the engine's ID store alone (no consumer, no purge timer), deployed beside the test
 * server's application; every test writes under a consumer name of its own and deletes its rows after.
 */
@ExtendWith(ArquillianExtension.class)
class ProcessedIdStoreInContainerIT {

    private final String consumer = "in-container/" + UUID.randomUUID();

    @Deployment
    static WebArchive idStore() {
        return ShrinkWrap.create(WebArchive.class, "id-store-in-container.war")
                .addPackage(ProcessedMessage.class.getPackage())
                .addPackage(org.exactlyonce.internal.durability.DurabilityGuard.class.getPackage())
                .addClasses(ProtocolStep.class, ProtocolStep.Step.class)
                .addPackage(org.exactlyonce.internal.message.MessageBodies.class.getPackage())
                .addClasses(ParkedMessage.class, ParkedRows.class, ParkReason.class, BrokerConnections.class)
                .addAsResource("in-container/persistence.xml", "META-INF/persistence.xml")
                .addAsWebInfResource(
                        new StringAsset("<beans bean-discovery-mode=\"annotated\" version=\"4.0\"/>"), "beans.xml");
    }

    @AfterEach
    void deleteTheTestsRows() throws Exception {
        try (Connection connection = database().getConnection()) {
            for (String table : List.of("EO_PROCESSED_MESSAGE", "EO_PARKED_MESSAGE", "EO_CONSUMER")) {
                try (PreparedStatement delete =
                        connection.prepareStatement("DELETE FROM " + table + " WHERE CONSUMER = ?")) {
                    delete.setString(1, consumer);
                    delete.executeUpdate();
                }
            }
        }
    }

    @Test
    void theFirstDeliveryOfAnIdIsRecordedAndASecondIsRefusedByTheKey() throws Exception {
        Instant firstBegan = Instant.now();
        assertTrue(recordAndCommit("order-1", "credit 100"));

        assertFalse(recordAndRollBack("order-1", "credit 100"));
        assertEquals(
                Duplicate.ALREADY_COMMITTED,
                earlierDelivery("order-1", message("credit 100"), firstBegan.plusSeconds(60)));
    }

    @Test
    void anIdRecordedInATransactionThatRolledBackIsNotThere() throws Exception {
        recordAndRollBack("order-2", "credit 100");

        assertTrue(ids().find(consumer, "order-2").isEmpty());
        assertTrue(recordAndCommit("order-2", "credit 100"), "its redelivery is a first delivery");
    }

    @Test
    void aReSendWithAnotherPayloadIsTakenForAnotherMessageReusingTheId() throws Exception {
        recordAndCommit("order-3", "credit 100");

        assertEquals(
                Duplicate.CONFLICTING_PAYLOAD,
                earlierDelivery("order-3", message("credit 999"), Instant.now().plusSeconds(60)));
    }

    @Test
    void idsThatACollationOrBlankPaddingWouldMergeAreKeptApart() throws Exception {
        List<String> distinct = List.of(
                "order-4",
                "ORDER-4",
                "order-4 ",
                "order-4  ",
                "order-4~",
                "order-4 ~",
                "e",
                "\u00e9",
                "e\u0301",
                "ss",
                "\u00df",
                "\u6ce8",
                "\uD83D\uDE00");

        for (String id : distinct) {
            assertTrue(recordAndCommit(id, "credit"), () -> "'" + id + "' was taken for an ID recorded before");
        }
        for (String id : distinct) {
            assertEquals(id, ids().find(consumer, id).orElseThrow().messageId(), "read back as it was recorded");
        }
        assertEquals(distinct.size(), ids().count(consumer).unconfirmed());
    }

    /**
     * A parked message whose acknowledgement a crash lost comes back, counted as a first delivery when
     * the broker restarted without its count (Artemis, for a paged message): the insert, one statement
     * on each database, refuses it; the producer's re-send of its ID, another broker message, is recorded.
     */
    @Test
    void aParkedMessageThatComesBackIsNotRecordedAndTheReSendOfItsIdIs() throws Exception {
        Message parked = message("credit 100", "ID:parked-" + UUID.randomUUID());
        try (Connection connection = database().getConnection()) {
            ParkedRows.park(
                    connection, consumer, "order-6", parked, 3, ParkReason.KEEPS_FAILING, "failed", Instant.now());
        }

        assertFalse(recordAndCommit("order-6", parked));
        assertTrue(ids().find(consumer, "order-6").isEmpty());
        assertTrue(recordAndCommit("order-6", message("credit 100", "ID:re-sent-" + UUID.randomUUID())));
    }

    @Test
    void thePurgePagesUnconfirmedIdsOfTheBrokersInIdOrderFromTheLastIdOfAPage() throws Exception {
        List<String> recorded = List.of("a", "a ", "b", "c", "d");
        for (String id : recorded) {
            recordAndCommit(id, "credit", "broker-a");
        }
        recordAndCommit("e", "credit", "broker-a2"); // another node of broker-a's cluster
        recordAndCommit("elsewhere", "credit", "broker-b");
        Instant later = Instant.now().plusSeconds(1);

        List<String> paged = new ArrayList<>();
        String after = "";
        List<ProcessedMessage> page;
        do {
            page = ids().unconfirmed(consumer, Set.of("broker-a", "broker-a2"), later, after, 2);
            page.forEach(message -> paged.add(message.messageId()));
            after = page.isEmpty() ? after : page.get(page.size() - 1).messageId();
        } while (page.size() == 2);

        assertEquals(List.of("a", "a ", "b", "c", "d", "e"), paged);
        assertEquals(
                Map.of("broker-b", 1L), ids().unconfirmedOfOtherBrokers(consumer, Set.of("broker-a", "broker-a2")));
    }

    @Test
    void thePurgeDeletesOnlyConfirmedIdsPastTheCutoffInBatchesInTheOrderOfConfirmationSparingThoseInFlight()
            throws Exception {
        for (String id : List.of("a", "b", "c", "d", "e", "in-flight", "unconfirmed")) {
            recordAndCommit(id, "credit", "broker-a");
        }
        Instant earlier = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(10);
        Instant later = earlier.plusSeconds(5);
        assertEquals(3, ids().markAcknowledged(consumer, List.of("b", "d", "in-flight"), earlier));
        assertEquals(3, ids().markAcknowledged(consumer, List.of("a", "c", "e"), later));
        assertEquals(0, ids().markAcknowledged(consumer, List.of("a"), later.plusSeconds(5)), "marked once");

        List<List<String>> batches = new ArrayList<>();
        List<Integer> deleted = new ArrayList<>();
        List<ProcessedMessage> batch;
        Optional<Instant> lastAcknowledged = Optional.empty();
        String last = "";
        do {
            batch = ids().acknowledgedUntil(consumer, later, lastAcknowledged, last, 2);
            List<String> batchIds =
                    batch.stream().map(ProcessedMessage::messageId).toList();
            batches.add(batchIds);
            deleted.add(ids().deleteAcknowledged(consumer, batchIds, later, sparing(Set.of("in-flight"))));
            if (!batch.isEmpty()) {
                lastAcknowledged = batch.get(batch.size() - 1).acknowledgedAt();
                last = batch.get(batch.size() - 1).messageId();
            }
        } while (batch.size() == 2);

        assertEquals(
                List.of(List.of("b", "d"), List.of("in-flight", "a"), List.of("c", "e"), List.of()),
                batches,
                "each batch from where the last ended: the rest of its confirmation time, then later ones");
        assertEquals(List.of(2, 1, 2, 0), deleted);
        IdTableCounts left = ids().count(consumer);
        assertEquals(1, left.unconfirmed());
        assertEquals(1, left.acknowledged(), "the one in flight");
    }

    @Test
    void theAcknowledgedIdsAreCountedOnceAndThenKeptByEachConfirmationAndDeletion() throws Exception {
        for (String id : List.of("a", "b", "c", "d", "e")) {
            recordAndCommit(id, "credit", "broker-a");
        }
        registerTheConsumer();
        Instant confirmedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ids().markAcknowledged(consumer, List.of("a", "b"), confirmedAt);
        assertEquals(Optional.empty(), keptFigure(), "not counted yet: a confirmation does not start the figure");

        assertEquals(2, ids().count(consumer).acknowledged());
        assertEquals(Optional.of(2L), keptFigure(), "counted once, kept from then on");

        ids().markAcknowledged(consumer, List.of("b", "c", "d"), confirmedAt);
        assertEquals(Optional.of(4L), keptFigure(), "b was acknowledged already");
        assertEquals(2, ids().deleteAcknowledged(consumer, List.of("a", "c", "d"), confirmedAt, sparing(Set.of("d"))));
        assertEquals(Optional.of(2L), keptFigure(), "d was spared");
        IdTableCounts counts = ids().count(consumer);
        assertEquals(2, counts.acknowledged());
        assertEquals(1, counts.unconfirmed());

        setKeptFigure(1_000L);
        assertEquals(1_000, ids().count(consumer).acknowledged(), "a run reads the figure, it does not count");
        setKeptFigure(null);
        assertEquals(2, ids().count(consumer).acknowledged(), "a figure set to NULL is counted again");
    }

    @Test
    void theTableHasThePurgesIndexAndNotTheEarlierOne() throws Exception {
        try (Connection connection = database().getConnection()) {
            Map<String, List<String>> indexes = IdTableCheck.indexes(connection.getMetaData());

            assertTrue(IdTableCheck.hasPurgeIndex(indexes), indexes::toString);
            assertEquals(List.of(), IdTableCheck.indexesOnTheTimeAlone(indexes), indexes::toString);
        }
    }

    @Test
    void anIdParkedAfterThePurgeLookedItUpIsNotDeleted() throws Exception {
        recordAndCommit("expired", "credit", "broker-a");
        recordAndCommit("re-sent", "credit", "broker-a");
        Instant confirmedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ids().markAcknowledged(consumer, List.of("expired", "re-sent"), confirmedAt);
        List<String> batch = ids().acknowledgedUntil(consumer, confirmedAt, Optional.empty(), "", 10).stream()
                .map(ProcessedMessage::messageId)
                .toList();

        // meanwhile a delivery parks a re-sent copy with another payload: its ID must stay, so that
        // replaying the copy is refused
        try (Connection connection = database().getConnection()) {
            ParkedRows.park(
                    connection,
                    consumer,
                    "re-sent",
                    message("another credit"),
                    1,
                    ParkReason.ID_REUSED,
                    "a re-send with another payload",
                    Instant.now());
        }
        int deleted = ids().deleteAcknowledged(consumer, batch, confirmedAt, sparing(Set.of()));

        assertEquals(2, batch.size());
        assertEquals(1, deleted);
        assertTrue(ids().find(consumer, "re-sent").isPresent());
        assertTrue(ids().find(consumer, "expired").isEmpty());
    }

    @Test
    void anIdAcknowledgedAfterTheCutoffStays() throws Exception {
        recordAndCommit("recent", "credit", "broker-a");
        Instant confirmedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ids().markAcknowledged(consumer, List.of("recent"), confirmedAt);

        List<ProcessedMessage> batch =
                ids().acknowledgedUntil(consumer, confirmedAt.minusSeconds(1), Optional.empty(), "", 10);

        assertEquals(List.of(), batch);
        assertEquals(
                0,
                ids().deleteAcknowledged(consumer, List.of("recent"), confirmedAt.minusSeconds(1), sparing(Set.of())));
        assertTrue(ids().find(consumer, "recent").isPresent());
    }

    /** Deliveries held as the purge holds them, with these IDs in flight. */
    private static Function<Function<Set<String>, Integer>, Integer> sparing(Set<String> inFlight) {
        return delete -> delete.apply(inFlight);
    }

    private void registerTheConsumer() throws Exception {
        try (Connection connection = database().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO EO_CONSUMER"
                        + " (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT) VALUES (?, 'QUEUE', 'q', ?)")) {
            insert.setString(1, consumer);
            insert.setTimestamp(2, Timestamp.from(Instant.now()));
            insert.executeUpdate();
        }
    }

    private Optional<Long> keptFigure() throws Exception {
        try (Connection connection = database().getConnection();
                PreparedStatement select =
                        connection.prepareStatement("SELECT ACKNOWLEDGED_IDS FROM EO_CONSUMER WHERE CONSUMER = ?")) {
            select.setString(1, consumer);
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next(), "the consumer's row");
                long figure = row.getLong(1);
                return row.wasNull() ? Optional.empty() : Optional.of(figure);
            }
        }
    }

    private void setKeptFigure(Long figure) throws Exception {
        try (Connection connection = database().getConnection();
                PreparedStatement update =
                        connection.prepareStatement("UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = ? WHERE CONSUMER = ?")) {
            update.setObject(1, figure, Types.BIGINT);
            update.setString(2, consumer);
            update.executeUpdate();
        }
    }

    private boolean recordAndCommit(String id, String body) throws Exception {
        return recordAndCommit(id, body, "broker-a");
    }

    private boolean recordAndCommit(String id, String body, String broker) throws Exception {
        return recordAndCommit(id, message(body), broker);
    }

    private boolean recordAndCommit(String id, Message message) throws Exception {
        return recordAndCommit(id, message, "broker-a");
    }

    private boolean recordAndCommit(String id, Message message, String broker) throws Exception {
        UserTransaction transaction = transaction();
        transaction.begin();
        try {
            boolean first = record(id, message, broker);
            if (first) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
            return first;
        } catch (Exception e) {
            transaction.rollback();
            throw e;
        }
    }

    private boolean recordAndRollBack(String id, String body) throws Exception {
        UserTransaction transaction = transaction();
        transaction.begin();
        try {
            return record(id, message(body), "broker-a");
        } finally {
            transaction.rollback();
        }
    }

    /** The ID's insert as a delivery makes it, in the caller's JTA transaction. */
    private boolean record(String id, Message message, String broker) throws Exception {
        try (Connection connection = database().getConnection()) {
            return new IdRows().insert(connection, consumer, new IdRows.IdRow(id, message, broker), Instant.now());
        }
    }

    private Duplicate earlierDelivery(String id, Message message, Instant deliveryBegan) throws Exception {
        try (Connection connection = database().getConnection()) {
            return IdRows.earlierDelivery(connection, consumer, id, message, deliveryBegan);
        }
    }

    private static ProcessedMessages ids() {
        return CDI.current().select(ProcessedMessages.class).get();
    }

    /** A message as a broker would deliver it, with the JMS message ID it gave it. */
    private static Message message(String body, String jmsMessageId) throws JMSException {
        Message message = message(body);
        message.setJMSMessageID(jmsMessageId);
        return message;
    }

    /** A text message as the server's JMS provider makes it, never sent: its body is fingerprinted. */
    private static Message message(String body) {
        try (JMSContext jms = CDI.current()
                .select(BrokerConnections.class)
                .get()
                .connectionFactory()
                .createContext()) {
            return jms.createTextMessage(body);
        } catch (JMSException e) {
            throw new IllegalStateException("the test server's connection factory", e);
        }
    }

    private static UserTransaction transaction() {
        return lookup("java:comp/UserTransaction", UserTransaction.class);
    }

    private static DataSource database() {
        return lookup("java:comp/DefaultDataSource", DataSource.class);
    }

    private static <T> T lookup(String name, Class<T> type) {
        try {
            return type.cast(new InitialContext().lookup(name));
        } catch (NamingException e) {
            throw new IllegalStateException("the test server has no " + name, e);
        }
    }
}
