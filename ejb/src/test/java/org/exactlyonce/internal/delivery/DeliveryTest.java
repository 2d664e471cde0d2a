package org.exactlyonce.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.consumer.ConsumerNameClash;
import org.exactlyonce.internal.processed.IdRows.IdRow;
import org.exactlyonce.internal.telemetry.Outcome;
import org.exactlyonce.testing.EngineTables;
import org.exactlyonce.testing.InJvmBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocol for one message, written once, over JDBC transactions on a Derby database with the
 * engine's tables: each row of the crash matrix that one delivery decides. Each effect is a row in a
 * table without a key, so a message processed twice shows as two rows.
 */
class DeliveryTest {

    private static final String CONSUMER = "delivery-test";

    @RegisterExtension
    static final InJvmBroker BROKER = new InJvmBroker();

    private final List<Step> steps = new ArrayList<>();
    private final List<Outcome> outcomes = new ArrayList<>();
    private final FakeHold hold = new FakeHold();

    private EmbeddedDataSource database;
    private JMSContext jms;
    private CrashGuard crashGuard = CrashGuard.OFF;

    @BeforeEach
    void createTables() throws Exception {
        database = EngineTables.inNewDerby("delivery");
        try (Connection connection = database.getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE EFFECT (MESSAGE_ID VARCHAR(100) NOT NULL)");
        }
        jms = BROKER.connections().createContext();
    }

    @AfterEach
    void closeJms() {
        jms.close();
    }

    @Test
    void aFirstDeliveryRecordsItsIdAndItsEffectInOneCommit() throws Exception {
        assertEquals(Outcome.PROCESSED, delivery(5).deliver(row("order-1", "credit"), Delivery.Check.NONE, this::book));

        assertEquals(1, effectsOf("order-1"));
        assertEquals(1, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE WHERE MESSAGE_ID = 'order-1'"));
        assertEquals(List.of(Step.BEFORE_PROCESS, Step.BEFORE_COMMIT, Step.AFTER_COMMIT), steps);
        assertEquals(List.of(Outcome.PROCESSED), outcomes);
    }

    @Test
    void aRedeliveryAfterTheCommitIsDroppedAndHasNoSecondEffect() throws Exception {
        Delivery delivery = delivery(5);
        IdRow row = row("order-2", "credit");
        delivery.deliver(row, Delivery.Check.NONE, this::book);

        assertEquals(Outcome.DUPLICATE_ALREADY_COMMITTED, delivery.deliver(row, Delivery.Check.NONE, this::book));
        assertEquals(1, effectsOf("order-2"));
    }

    @Test
    void aReSendWithAnotherPayloadIsParkedAsAReusedId() throws Exception {
        Delivery delivery = delivery(5);
        delivery.deliver(row("order-3", "credit 10"), Delivery.Check.NONE, this::book);

        assertEquals(
                Outcome.DUPLICATE_CONFLICT,
                delivery.deliver(row("order-3", "credit 99"), Delivery.Check.NONE, this::book));
        assertEquals(1, effectsOf("order-3"));
        assertEquals(List.of(ParkReason.ID_REUSED.name()), parkedReasons());
    }

    @Test
    void aFailureBeforeTheCommitRollsBackTheIdAndHandsTheMessageBack() throws Exception {
        IdRow row = row("order-4", "credit");

        HandBack handBack = assertThrows(
                HandBack.class,
                () -> delivery(5).deliver(row, Delivery.Check.NONE, (message, database) -> {
                    book(message, database);
                    throw new IllegalStateException("cannot book it");
                }));

        assertTrue(handBack.getMessage().contains("order-4 (delivery 1)"), handBack::getMessage);
        assertEquals(0, effectsOf("order-4"));
        assertEquals(0, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE"));
        assertEquals(List.of(Outcome.FAILED), outcomes);
        assertEquals(Outcome.PROCESSED, delivery(5).deliver(row, Delivery.Check.NONE, this::book), "its redelivery");
    }

    @Test
    void aMessageThatFailsOnItsLastDeliveryIsParked() throws Exception {
        assertEquals(
                Outcome.PARKED,
                delivery(1).deliver(row("order-5", "credit"), Delivery.Check.NONE, (message, database) -> {
                    throw new IllegalStateException("cannot book it");
                }));

        assertEquals(List.of(ParkReason.KEEPS_FAILING.name()), parkedReasons());
        assertEquals(0, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE"));
        assertEquals(Step.AFTER_PARK, steps.get(steps.size() - 1));
    }

    /**
     * The test's messages carry no delivery count, so each delivery reads as a first one: as after
     * Artemis moved the message to another node, failed over or restarted.
     */
    @Test
    void aMessageWhoseBrokerCountStartsAgainIsParkedByTheFailuresCounted() throws Exception {
        IdRow poison = row("order-30", "credit");
        Delivery.Processing failing = (message, database) -> {
            throw new IllegalStateException("cannot book it");
        };
        for (int delivery = 1; delivery < 5; delivery++) {
            assertThrows(HandBack.class, () -> delivery(5).deliver(poison, Delivery.Check.NONE, failing));
        }

        assertEquals(Outcome.PARKED, delivery(5).deliver(poison, Delivery.Check.NONE, failing), "its fifth failure");
        assertEquals(List.of(ParkReason.KEEPS_FAILING.name()), parkedReasons());
        assertEquals(0, count("SELECT COUNT(*) FROM EO_INTERRUPTED_DELIVERY"), "its count forgotten once parked");
    }

    @Test
    void theFailuresCountedAreForgottenWhenARedeliverySucceeds() throws Exception {
        IdRow flaky = row("order-31", "credit");
        assertThrows(
                HandBack.class,
                () -> delivery(5).deliver(flaky, Delivery.Check.NONE, (message, database) -> {
                    throw new IllegalStateException("not yet");
                }));
        assertEquals(1, count("SELECT FAILURES FROM EO_INTERRUPTED_DELIVERY WHERE MESSAGE_ID = 'order-31'"));

        flaky.message().setJMSRedelivered(true);

        assertEquals(Outcome.PROCESSED, delivery(5).deliver(flaky, Delivery.Check.NONE, this::book));
        assertEquals(0, count("SELECT COUNT(*) FROM EO_INTERRUPTED_DELIVERY"));
        assertEquals(1, effectsOf("order-31"));
    }

    @Test
    void anInvalidMessageIsParkedAtOnce() throws Exception {
        assertEquals(
                Outcome.PARKED,
                delivery(5).deliver(row("order-6", "credit"), Delivery.Check.NONE, (message, database) -> {
                    throw new InvalidMessageException("not a credit");
                }));

        assertEquals(List.of(ParkReason.INVALID_PAYLOAD.name()), parkedReasons());
    }

    @Test
    void aMessageParkedBeforeIsAcknowledgedAndNeverProcessed() throws Exception {
        IdRow row = row("order-7", "credit");
        try (Connection connection = database.getConnection()) {
            EngineTables.park(connection, CONSUMER, row.message().getJMSMessageID());
        }

        assertEquals(Outcome.PARKED, delivery(5).deliver(row, Delivery.Check.NONE, this::book));
        assertEquals(0, effectsOf("order-7"));
    }

    @Test
    void aTransientFailureIsTriedAgainWithinTheDelivery() throws Exception {
        AtomicInteger attempts = new AtomicInteger();

        Outcome outcome = delivery(1).deliver(row("order-8", "credit"), Delivery.Check.NONE, (message, database) -> {
            book(message, database);
            if (attempts.incrementAndGet() < 3) {
                throw new SQLTransientConnectionException("connection reset", "08006");
            }
        });

        assertEquals(Outcome.PROCESSED, outcome, "never parked, though one delivery parks");
        assertEquals(3, attempts.get());
        assertEquals(1, effectsOf("order-8"));
    }

    @Test
    void aTransientFailureWhileTheDatabaseAnswersIsTheMessagesOwn() throws Exception {
        hold.answers = true;

        assertEquals(
                Outcome.PARKED,
                delivery(1).deliver(row("order-9", "credit"), Delivery.Check.NONE, (message, database) -> {
                    throw new SQLTransientConnectionException("deadlock", "40001");
                }));

        assertEquals(List.of(ParkReason.KEEPS_FAILING.name()), parkedReasons());
        assertEquals(0, hold.waits, "the database never counted as down");
    }

    @Test
    void whileTheDatabaseIsDownTheMessageIsHeldThenHandedBackNotParked() throws Exception {
        hold.answers = false;

        assertThrows(
                HandBack.class,
                () -> delivery(1).deliver(row("order-10", "credit"), Delivery.Check.NONE, (message, database) -> {
                    throw new SQLTransientConnectionException("connection refused", "08001");
                }));

        assertEquals(1, hold.waits);
        assertEquals(List.of(), parkedReasons());
        assertEquals(List.of(Outcome.FAILED), outcomes);
    }

    @Test
    void aDatabaseKnownDownIsWaitedForBeforeAnyAttempt() throws Exception {
        hold.knownDown = true;
        AtomicInteger attempts = new AtomicInteger();

        assertThrows(
                HandBack.class,
                () -> delivery(5).deliver(row("order-11", "credit"), Delivery.Check.NONE, (message, database) -> {
                    attempts.incrementAndGet();
                }));

        assertEquals(0, attempts.get());
    }

    @Test
    void aNameClashFoundBeforeTheAttemptHandsTheMessageBack() throws Exception {
        IdRow row = row("order-12", "credit");
        Delivery.Check clash = message -> {
            throw new ConsumerNameClash(
                    ConsumerDestination.of(
                            CONSUMER,
                            jms.createQueue("orders"),
                            Clock.systemUTC().instant()),
                    ConsumerDestination.of(
                            CONSUMER,
                            jms.createQueue("refunds"),
                            Clock.systemUTC().instant()));
        };

        assertThrows(HandBack.class, () -> delivery(1).deliver(row, clash, this::book));
        assertEquals(List.of(), parkedReasons(), "never parked under a name another consumer owns");
        assertEquals(0, effectsOf("order-12"));
    }

    /**
     * Each run of the "server" opens the crash journal as a start does; a crash is the journal's file as
     * it was while the killer's processing ran (the process dies with its slots written), taken back
     * before the next start. The killer's processing never ends by itself.
     */
    @Test
    void aMessageThatCrashesTheServerIsParkedOnceItsCrashesReachTheBound(@TempDir Path directory) throws Exception {
        Path journal = directory.resolve("crash-journal");
        Path atTheCrash = directory.resolve("at-the-crash");
        IdRow killer = row("order-20", "credit");
        IdRow beside = row("order-21", "credit");
        AtomicInteger crashes = new AtomicInteger();
        Delivery.Processing crashing = (message, connection) -> {
            Files.copy(journal, atTheCrash, StandardCopyOption.REPLACE_EXISTING);
            crashes.incrementAndGet();
            throw new IllegalStateException("the JVM halts here");
        };

        crashGuard = CrashGuard.on(CrashJournal.open(journal, 8), 3);
        crashGuard.journal(CONSUMER, beside.messageId()); // in flight beside the killer at the first crash
        assertThrows(HandBack.class, () -> delivery(5).deliver(killer, Delivery.Check.NONE, crashing));
        for (int restart = 1; restart <= 3; restart++) {
            Files.copy(atTheCrash, journal, StandardCopyOption.REPLACE_EXISTING);
            CrashJournal opened = CrashJournal.open(journal, 8);
            crashGuard = CrashGuard.on(opened, 3);
            if (restart == 1) {
                assertEquals(Set.of("order-20", "order-21"), opened.interruptedDeliveries(CONSUMER));
                assertEquals(Outcome.PROCESSED, delivery(5).deliver(beside, Delivery.Check.NONE, this::book));
            }
            if (restart < 3) {
                assertThrows(HandBack.class, () -> delivery(5).deliver(killer, Delivery.Check.NONE, crashing));
            }
        }

        assertEquals(Outcome.PARKED, delivery(5).deliver(killer, Delivery.Check.NONE, crashing));
        assertEquals(3, crashes.get(), "parked at its fourth delivery, without processing it");
        assertEquals(List.of(ParkReason.CRASHES_THE_SERVER.name()), parkedReasons());
        assertEquals(1, effectsOf("order-21"), "what ran beside it once is processed");
        assertEquals(0, count("SELECT COUNT(*) FROM EO_INTERRUPTED_DELIVERY"), "every count forgotten once handled");
        assertEquals(Outcome.PARKED, delivery(5).deliver(killer, Delivery.Check.NONE, crashing), "a redelivery");
        assertEquals(3, crashes.get());
    }

    private Delivery delivery(int parkAfterDeliveries) {
        return new Delivery(
                CONSUMER,
                new JdbcTransactions(database),
                new DatabaseRetry(4, hold),
                new ParkingRule(parkAfterDeliveries),
                crashGuard,
                step -> steps.add(step.step()),
                (consumer, outcome) -> outcomes.add(outcome),
                Clock.systemUTC());
    }

    private IdRow row(String messageId, String body) throws JMSException {
        Message message = jms.createTextMessage(body);
        message.setJMSMessageID("ID:" + UUID.randomUUID());
        return new IdRow(messageId, message, "broker-a");
    }

    private void book(Message message, Connection connection) throws Exception {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO EFFECT (MESSAGE_ID) VALUES (?)")) {
            insert.setString(1, message.getJMSMessageID());
            insert.executeUpdate();
        }
    }

    private int effectsOf(String messageId) throws Exception {
        return count("SELECT COUNT(*) FROM EFFECT E JOIN EO_PROCESSED_MESSAGE P ON P.JMS_MESSAGE_ID = E.MESSAGE_ID"
                + " WHERE P.MESSAGE_ID = '" + messageId + "'");
    }

    private List<String> parkedReasons() throws Exception {
        List<String> reasons = new ArrayList<>();
        try (Connection connection = database.getConnection();
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery("SELECT REASON FROM EO_PARKED_MESSAGE ORDER BY ID")) {
            while (rows.next()) {
                reasons.add(rows.getString(1));
            }
        }
        return reasons;
    }

    private int count(String query) throws Exception {
        try (Connection connection = database.getConnection();
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery(query)) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** A database hold that answers as the test says and never waits. */
    private static final class FakeHold implements DatabaseHold {
        boolean knownDown;
        boolean answers = true;
        int waits;

        @Override
        public boolean knownDown() {
            return knownDown;
        }

        @Override
        public boolean answersNow() {
            return answers;
        }

        @Override
        public boolean awaitBack() {
            waits++;
            return false;
        }
    }
}
