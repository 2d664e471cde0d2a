package org.exactlyonce.internal.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.naming.InitialContext;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.exactlyonce.internal.broker.artemis.ArtemisView;
import org.exactlyonce.internal.broker.liberty.MessagingEngineView;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server's broker view against the server's own broker (Open Liberty's messaging engine, or the
 * ActiveMQ Artemis inside WildFly): the purge's one question, which of these messages may still be
 * delivered, answered for a message in each state the broker can hold it in. It runs on the queue
 * {@code InContainer}, which the harness defines and no consumer reads.
 */
@ExtendWith(ArquillianExtension.class)
class BrokerViewInContainerIT {

    private static final String QUEUE = "InContainer";

    @Deployment
    static WebArchive brokerViews() {
        return ShrinkWrap.create(WebArchive.class, "broker-view-in-container.war")
                .addPackage(BrokerView.class.getPackage())
                .addPackage(MessagingEngineView.class.getPackage())
                .addPackage(ArtemisView.class.getPackage())
                .addClasses(ParkReason.class, OrderIdProperty.class)
                .addAsWebInfResource(
                        new StringAsset("<beans bean-discovery-mode=\"annotated\" version=\"4.0\"/>"), "beans.xml");
    }

    @BeforeEach
    void emptyTheQueue() throws JMSException {
        try (JMSContext jms = jms()) {
            JMSConsumer consumer = jms.createConsumer(queue(jms));
            while (consumer.receive(500) != null) {
                // an earlier run's leftovers
            }
        }
    }

    @Test
    void messagesOnTheQueueAreStillThereAndAMessageNeverSentIsNot() throws Exception {
        Candidate first = send();
        Candidate second = send();
        Candidate neverSent = new Candidate("never-sent-" + UUID.randomUUID(), "ID:never-sent");

        assertEquals(
                Set.of(first.messageId(), second.messageId()),
                view().stillOnQueue(QUEUE, List.of(first, second, neverSent)));
    }

    @Test
    void aMessageConsumedAndAcknowledgedIsGone() throws Exception {
        Candidate consumed = send();
        Candidate waiting = send();
        try (JMSContext jms = jms()) {
            assertNotNull(jms.createConsumer(queue(jms)).receive(5_000));
        }

        assertEquals(Set.of(waiting.messageId()), view().stillOnQueue(QUEUE, List.of(consumed, waiting)));
    }

    @Test
    void aMessageDeliveredInATransactionNotYetCommittedIsStillThereAndGoneAfterTheCommit() throws Exception {
        Candidate delivered = send();

        receiveInATransaction(
                () -> assertEquals(
                        Set.of(delivered.messageId()), view().stillOnQueue(QUEUE, List.of(delivered)), "in flight"),
                true);

        assertEquals(Set.of(), view().stillOnQueue(QUEUE, List.of(delivered)), "acknowledged");
    }

    @Test
    void aMessageWhoseDeliveryRolledBackIsStillThere() throws Exception {
        Candidate redelivered = send();

        receiveInATransaction(() -> {}, false);

        assertEquals(Set.of(redelivered.messageId()), view().stillOnQueue(QUEUE, List.of(redelivered)));
    }

    @Test
    void theBrokerThatDeliversAMessageIsTheOneTheViewSees() throws Exception {
        send();
        Message received;
        try (JMSContext jms = jms()) {
            received = jms.createConsumer(queue(jms)).receive(5_000);
            assertNotNull(received);
        }

        assertEquals(view().brokers(), Set.of(view().brokerOf(received).orElseThrow()));
    }

    @Test
    void manyMessagesAreAnsweredForInOneLook() throws Exception {
        List<Candidate> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            sent.add(send());
        }

        assertEquals(300, view().stillOnQueue(QUEUE, sent).size());
    }

    /** What a test checks while a message is delivered and not yet acknowledged. */
    private interface WhileInFlight {
        void check() throws Exception;
    }

    /** Receives one message in a JTA transaction, checks while it is in flight, then commits or rolls back. */
    private void receiveInATransaction(WhileInFlight whileInFlight, boolean commit) throws Exception {
        UserTransaction transaction = (UserTransaction) new InitialContext().lookup("java:comp/UserTransaction");
        transaction.begin();
        try (JMSContext jms = jms()) {
            assertNotNull(jms.createConsumer(queue(jms)).receive(5_000));
            whileInFlight.check();
        } finally {
            if (commit) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
        }
    }

    /** Sends a message with an application ID of its own; the candidate the purge would ask about. */
    private Candidate send() throws JMSException {
        try (JMSContext jms = jms()) {
            String id = "order-" + UUID.randomUUID();
            Message message = jms.createTextMessage("credit");
            message.setStringProperty(OrderIdProperty.NAME, id);
            jms.createProducer().send(queue(jms), message);
            return new Candidate(id, message.getJMSMessageID());
        }
    }

    private static BrokerView view() {
        return System.getProperty("jboss.home.dir") != null
                ? ArtemisView.insideWildFly(new OrderIdProperty(), connections())
                : CDI.current().select(MessagingEngineView.class).get();
    }

    private static JMSContext jms() throws JMSException {
        return connections().connectionFactory().createContext();
    }

    private static Queue queue(JMSContext jms) {
        return jms.createQueue(QUEUE);
    }

    private static BrokerConnections connections() {
        return CDI.current().select(BrokerConnections.class).get();
    }
}
