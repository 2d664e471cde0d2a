package org.exactlyonce.internal.broker.artemis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The standalone Artemis view against a real cluster of two nodes in this JVM, on loopback ports, as the
 * notes measured one: messages load-balanced on demand and redistributed at once. The view's connection
 * factory reaches node 1 first, as a server's does; what node 2 holds, node 1's management never shows.
 */
class ArtemisClusterViewTest {

    private static final String QUEUE = "Orders";
    private static final String ORDER_ID = "orderId";

    private final int[] ports = {freePort(), freePort()};
    private final EmbeddedActiveMQ[] nodes = new EmbeddedActiveMQ[2];
    private final ActiveMQConnectionFactory[] pinned = new ActiveMQConnectionFactory[2];
    private ActiveMQConnectionFactory engine;

    @BeforeEach
    void startTheCluster() throws Exception {
        for (int node = 0; node < 2; node++) {
            nodes[node] = start(node);
            pinned[node] = new ActiveMQConnectionFactory(
                    "tcp://127.0.0.1:" + ports[node] + "?useTopologyForLoadBalancing=false");
        }
        awaitTwoMembersOnEachNode();
        engine = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + ports[0]);
    }

    @AfterEach
    void stopTheCluster() throws Exception {
        engine.close();
        for (int node = 0; node < 2; node++) {
            pinned[node].close();
            if (nodes[node] != null) {
                nodes[node].stop();
            }
        }
    }

    @Test
    void aMessageInFlightOnAnotherNodeIsStillThere() throws Exception {
        Candidate waiting = send(1);
        try (Connection consumer = pinned[1].createConnection()) {
            Session session = consumer.createSession(Session.CLIENT_ACKNOWLEDGE);
            consumer.start();
            assertNotNull(session.createConsumer(session.createQueue(QUEUE)).receive(5_000)); // not acknowledged

            assertEquals(Set.of(waiting.messageId()), view(2).stillOnQueue(QUEUE, List.of(waiting)));
        }
    }

    @Test
    void aMessageWaitingOnAnotherNodeIsStillThereAndGoneOnceConsumed() throws Exception {
        Candidate waiting = send(1);

        assertEquals(Set.of(waiting.messageId()), view(2).stillOnQueue(QUEUE, List.of(waiting)));

        try (Connection consumer = pinned[1].createConnection()) {
            Session session = consumer.createSession(Session.AUTO_ACKNOWLEDGE);
            consumer.start();
            assertNotNull(session.createConsumer(session.createQueue(QUEUE)).receive(5_000));
        }
        assertEquals(Set.of(), view(2).stillOnQueue(QUEUE, List.of(waiting)));
    }

    @Test
    void theViewAnswersForTheIdsOfEveryNode() throws Exception {
        ArtemisView view = view(2);
        Set<String> nodeIds = Set.of(nodeId(0), nodeId(1));

        assertEquals(nodeIds, view.brokers());
        assertTrue(nodeIds.contains(view.brokerOf(null).orElseThrow()));
    }

    @Test
    void aNodeThatStoppedMeansTheViewCannotTell() throws Exception {
        ArtemisView view = view(2);
        Candidate waiting = send(1);
        assertEquals(Set.of(waiting.messageId()), view.stillOnQueue(QUEUE, List.of(waiting)));

        nodes[1].stop();
        nodes[1] = null;

        BrokerCannotTell cannotTell =
                assertThrows(BrokerCannotTell.class, () -> view.stillOnQueue(QUEUE, List.of(waiting)));
        assertTrue(cannotTell.getMessage().contains("could not be reached"), cannotTell.getMessage());
    }

    @Test
    void aClusterSmallerThanDeclaredMeansTheViewCannotTell() throws Exception {
        Candidate waiting = send(0);

        BrokerCannotTell cannotTell =
                assertThrows(BrokerCannotTell.class, () -> view(3).stillOnQueue(QUEUE, List.of(waiting)));
        assertTrue(cannotTell.getMessage().contains("exactlyonce.artemis.cluster-nodes"), cannotTell.getMessage());
    }

    @Test
    void aMessageThatExpiredFromTheQueueIsStillThere() throws Exception {
        Candidate expired = send(0, QUEUE, 1);
        Candidate fromAnotherQueue = send(0, "Other", 1);
        awaitExpired(2);

        assertEquals(Set.of(expired.messageId()), view(2).stillOnQueue(QUEUE, List.of(expired, fromAnotherQueue)));
    }

    private ArtemisView view(int clusterNodes) {
        BrokerConnections connections = new BrokerConnections() {
            @Override
            public ConnectionFactory connectionFactory() {
                return engine;
            }
        };
        return ArtemisView.standalone(new OrderIds(), connections, clusterNodes);
    }

    private Candidate send(int node) throws JMSException {
        return send(node, QUEUE, 0);
    }

    private Candidate send(int node, String queue, long timeToLive) throws JMSException {
        try (Connection connection = pinned[node].createConnection()) {
            Session session = connection.createSession();
            MessageProducer producer = session.createProducer(session.createQueue(queue));
            producer.setTimeToLive(timeToLive);
            Message message = session.createTextMessage("order");
            String orderId = "order-" + UUID.randomUUID();
            message.setStringProperty(ORDER_ID, orderId);
            producer.send(message);
            return new Candidate(orderId, message.getJMSMessageID());
        }
    }

    private void awaitExpired(int messages) throws Exception {
        for (int tries = 0; tries < 100; tries++) {
            if (nodes[0].getActiveMQServer().locateQueue("ExpiryQueue").getMessageCount() == messages) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the message did not expire");
    }

    private String nodeId(int node) {
        return nodes[node].getActiveMQServer().getNodeID().toString();
    }

    private EmbeddedActiveMQ start(int node) throws Exception {
        int other = 1 - node;
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration
                .setName("node" + node)
                .setPersistenceEnabled(false)
                .setSecurityEnabled(false)
                .setClusterUser("cluster")
                .setClusterPassword("cluster")
                .setMessageExpiryScanPeriod(100)
                .addAcceptorConfiguration("netty", "tcp://127.0.0.1:" + ports[node])
                .addConnectorConfiguration("self", "tcp://127.0.0.1:" + ports[node])
                .addConnectorConfiguration("other", "tcp://127.0.0.1:" + ports[other])
                .addClusterConfiguration(new ClusterConnectionConfiguration()
                        .setName("my-cluster")
                        .setConnectorName("self")
                        .setStaticConnectors(List.of("other"))
                        .setMessageLoadBalancingType(MessageLoadBalancingType.ON_DEMAND)
                        .setMaxHops(1)
                        .setRetryInterval(200))
                .addAddressSetting(
                        "#",
                        new AddressSettings()
                                .setRedistributionDelay(0)
                                .setDeadLetterAddress(SimpleString.of("DLQ"))
                                .setExpiryAddress(SimpleString.of("ExpiryQueue")))
                .addQueueConfiguration(QueueConfiguration.of("DLQ").setRoutingType(RoutingType.ANYCAST))
                .addQueueConfiguration(QueueConfiguration.of("ExpiryQueue").setRoutingType(RoutingType.ANYCAST))
                .addQueueConfiguration(QueueConfiguration.of(QUEUE).setRoutingType(RoutingType.ANYCAST))
                .addQueueConfiguration(QueueConfiguration.of("Other").setRoutingType(RoutingType.ANYCAST));
        EmbeddedActiveMQ broker = new EmbeddedActiveMQ().setConfiguration(configuration);
        broker.start();
        return broker;
    }

    private void awaitTwoMembersOnEachNode() throws InterruptedException {
        for (int tries = 0; tries < 200; tries++) {
            if (members(0) == 2 && members(1) == 2) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the two nodes did not form a cluster");
    }

    private int members(int node) {
        return nodes[node]
                .getActiveMQServer()
                .getClusterManager()
                .getClusterConnection("my-cluster")
                .getTopology()
                .getMembers()
                .size();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The orders' ID, in the property the sample's producers set. */
    private static final class OrderIds implements ApplicationIds {

        @Override
        public Optional<String> usableIdOf(Message message) throws JMSException {
            return Optional.ofNullable(message.getStringProperty(ORDER_ID));
        }

        @Override
        public Optional<String> usableIdOf(Map<String, ?> properties, String jmsMessageId) {
            return Optional.ofNullable(properties.get(ORDER_ID)).map(String::valueOf);
        }
    }
}
