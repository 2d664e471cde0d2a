package org.exactlyonce.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.consumer.ConsumerNameClash;
import org.exactlyonce.internal.outage.TransientDatabaseFailure;
import org.exactlyonce.internal.park.ParkedMessage;
import org.exactlyonce.internal.park.ParkedRows;
import org.exactlyonce.internal.processed.IdRows;
import org.exactlyonce.internal.telemetry.Outcome;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The delivery protocol over JTA inside a real server, on its own database and transaction manager,
 * as a message-driven bean runs it: the ID's insert and the application's write, made on a connection
 * of its own as a persistence context makes it, commit or roll back together. The archive holds the
 * protocol's classes alone, deployed beside the test server's application; every test writes under a
 * consumer name of its own and deletes its rows after.
 */
@ExtendWith(ArquillianExtension.class)
class DeliveryInContainerIT {

    /** The application's table in these tests: one row per effect, without a key. */
    private static final String EFFECT = "EO_TEST_EFFECT";

    private final String consumer = "in-container/" + UUID.randomUUID();
    private final List<Outcome> outcomes = new ArrayList<>();

    @Deployment
    static WebArchive protocol() {
        return ShrinkWrap.create(WebArchive.class, "delivery-in-container.war")
                .addClasses(
                        Delivery.class,
                        Transactions.class,
                        JtaTransactions.class,
                        DatabaseRetry.class,
                        DatabaseHold.class,
                        HandBack.class,
                        ParkingRule.class,
                        CrashGuard.class,
                        CrashJournal.class,
                        InterruptedRows.class,
                        InvalidMessageException.class,
                        FailsOnItsOwn.class,
                        ProcessingError.class,
                        ConsumerNameClash.class,
                        ConsumerDestination.class,
                        TransientDatabaseFailure.class,
                        Outcome.class,
                        BrokerConnections.class)
                .addPackage(IdRows.class.getPackage())
                .addPackage(org.exactlyonce.internal.durability.DurabilityGuard.class.getPackage())
                .addClasses(ProtocolStep.class, ProtocolStep.Step.class)
                .addPackage(org.exactlyonce.internal.message.MessageBodies.class.getPackage())
                .addClasses(ParkedMessage.class, ParkedRows.class, ParkReason.class)
                .addAsResource("in-container/persistence.xml", "META-INF/persistence.xml")
                .addAsWebInfResource(
                        new StringAsset("<beans bean-discovery-mode=\"annotated\" version=\"4.0\"/>"), "beans.xml");
    }

    @BeforeEach
    void createTheEffectTable() throws Exception {
        try (Connection connection = database().getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute(
                    "CREATE TABLE " + EFFECT + " (CONSUMER VARCHAR(100) NOT NULL, MESSAGE_ID VARCHAR(100) NOT NULL)");
        } catch (SQLException e) {
            // there already, from an earlier test
        }
    }

    @AfterEach
    void deleteTheTestsRows() throws Exception {
        try (Connection connection = database().getConnection()) {
            for (String table : List.of("EO_PROCESSED_MESSAGE", "EO_PARKED_MESSAGE", EFFECT)) {
                try (PreparedStatement delete =
                        connection.prepareStatement("DELETE FROM " + table + " WHERE CONSUMER = ?")) {
                    delete.setString(1, consumer);
                    delete.executeUpdate();
                }
            }
        }
    }

    @Test
    void theIdAndTheApplicationsWriteCommitTogether() throws Exception {
        assertEquals(Outcome.PROCESSED, deliver("order-1", message("credit 10"), booking("order-1")));

        assertEquals(1, effectsOf("order-1"));
        assertEquals(1, idsOf("order-1"));
    }

    @Test
    void aFailedDeliveryRollsBackTheIdAndTheApplicationsWrite() throws Exception {
        assertThrows(
                HandBack.class,
                () -> deliver("order-2", message("credit 10"), (message, database) -> {
                    booking("order-2").process(message, database);
                    throw new IllegalStateException("cannot book it");
                }));

        assertEquals(0, effectsOf("order-2"));
        assertEquals(0, idsOf("order-2"));
        assertEquals(List.of(Outcome.FAILED), outcomes);
    }

    @Test
    void aRedeliveryIsDroppedWithoutASecondEffect() throws Exception {
        Message message = message("credit 10");
        deliver("order-3", message, booking("order-3"));

        assertEquals(Outcome.DUPLICATE_ALREADY_COMMITTED, deliver("order-3", message, booking("order-3")));
        assertEquals(1, effectsOf("order-3"));
    }

    @Test
    void aReSendWithAnotherPayloadIsParked() throws Exception {
        deliver("order-4", message("credit 10"), booking("order-4"));

        assertEquals(Outcome.DUPLICATE_CONFLICT, deliver("order-4", message("credit 99"), booking("order-4")));
        assertEquals(1, effectsOf("order-4"));
        assertEquals(List.of(ParkReason.ID_REUSED.name()), parkedReasons());
    }

    @Test
    void aMessageParkedBeforeIsNotProcessedWhenItComesBack() throws Exception {
        Message message = message("credit 10");
        assertEquals(Outcome.PARKED, deliver("order-5", message, (parked, database) -> {
            throw new InvalidMessageException("not a credit");
        }));

        assertEquals(Outcome.PARKED, deliver("order-5", message, booking("order-5")));
        assertEquals(0, effectsOf("order-5"));
        assertEquals(List.of(ParkReason.INVALID_PAYLOAD.name()), parkedReasons());
    }

    private Outcome deliver(String messageId, Message message, Delivery.Processing processing) throws Exception {
        Delivery delivery = new Delivery(
                consumer,
                new JtaTransactions(lookup("java:comp/UserTransaction", UserTransaction.class), database()),
                new DatabaseRetry(4, new DatabaseHold() {
                    @Override
                    public boolean knownDown() {
                        return false;
                    }

                    @Override
                    public boolean answersNow() {
                        return true;
                    }

                    @Override
                    public boolean awaitBack() {
                        return false;
                    }
                }),
                new ParkingRule(5),
                CrashGuard.OFF,
                step -> {},
                (name, outcome) -> outcomes.add(outcome),
                Clock.systemUTC());
        return delivery.deliver(new IdRows.IdRow(messageId, message, "broker-a"), Delivery.Check.NONE, processing);
    }

    /** The application's write of the message, on a connection of its own as a persistence context takes one. */
    private Delivery.Processing booking(String messageId) {
        return (message, ignored) -> {
            try (Connection connection = database().getConnection();
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO " + EFFECT + " (CONSUMER, MESSAGE_ID) VALUES (?, ?)")) {
                insert.setString(1, consumer);
                insert.setString(2, messageId);
                insert.executeUpdate();
            }
        };
    }

    private int effectsOf(String messageId) throws Exception {
        return count("SELECT COUNT(*) FROM " + EFFECT + " WHERE CONSUMER = ? AND MESSAGE_ID = ?", messageId);
    }

    private int idsOf(String messageId) throws Exception {
        return count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ? AND MESSAGE_ID = ?", messageId);
    }

    private List<String> parkedReasons() throws Exception {
        List<String> reasons = new ArrayList<>();
        try (Connection connection = database().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT REASON FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? ORDER BY ID")) {
            select.setString(1, consumer);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    reasons.add(rows.getString(1));
                }
            }
        }
        return reasons;
    }

    private int count(String query, String messageId) throws Exception {
        try (Connection connection = database().getConnection();
                PreparedStatement select = connection.prepareStatement(query)) {
            select.setString(1, consumer);
            select.setString(2, messageId);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    /** A text message as the server's JMS provider makes it, with a JMS message ID of its own. */
    private static Message message(String body) throws JMSException {
        try (JMSContext jms = CDI.current()
                .select(BrokerConnections.class)
                .get()
                .connectionFactory()
                .createContext()) {
            Message message = jms.createTextMessage(body);
            message.setJMSMessageID("ID:" + UUID.randomUUID());
            return message;
        }
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
