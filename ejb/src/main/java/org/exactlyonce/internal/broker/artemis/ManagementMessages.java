package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * Artemis' management API as plain Jakarta Messaging, for a broker of its own, on one connection held
 * for a whole look: a request is a text message to the management address naming a resource ({@code
 * broker}, {@code queue.<name>}, {@code address.<name>}) and an operation or attribute, its parameters a
 * JSON array; the reply, on the connection's temporary queue, says whether it succeeded and carries the
 * result as the first element of a JSON array. A connection reaches one node of a cluster, and every
 * answer and browse on it is that node's, which is what lets a look ask each node in turn. No Artemis
 * class is needed in the application; the engine's broker user needs the {@code manage} permission on
 * the management address, and may create temporary queues.
 */
final class ManagementMessages implements ArtemisControl, AutoCloseable {

    private static final String MANAGEMENT_ADDRESS = "activemq.management";
    private static final long REPLY_MILLIS = 10_000;

    private final Connection connection;
    private final Session session;
    private final MessageProducer requests;
    private final jakarta.jms.Queue replyQueue;
    private final MessageConsumer replies;

    /**
     * Opens a connection of its own, closed as a whole: inside a server, Artemis' resource adapter deletes
     * a connection's temporary queues when the connection closes, and a session closed before it (as a
     * {@code JMSContext} closes) is back in the pool, where another thread may have taken it by the time
     * the deletion runs on it.
     */
    ManagementMessages(ConnectionFactory factory) throws BrokerCannotTell {
        Connection opened = null;
        try {
            opened = factory.createConnection();
            session = opened.createSession();
            requests = session.createProducer(session.createQueue(MANAGEMENT_ADDRESS));
            replyQueue = session.createTemporaryQueue();
            replies = session.createConsumer(replyQueue);
            opened.start();
            connection = opened;
        } catch (JMSException | RuntimeException e) {
            closeQuietly(opened);
            throw new BrokerCannotTell("Artemis could not be reached for management requests: " + e, e);
        }
    }

    @Override
    public String nodeId() throws BrokerCannotTell {
        return text(request("broker", "_AMQ_Attribute", "NodeID"), "NodeID");
    }

    @Override
    public Set<String> clusterMembers() throws BrokerCannotTell {
        Set<String> members = new TreeSet<>();
        members.add(nodeId());
        try {
            JsonValue topology = parsed(request("broker", "_AMQ_OperationName", "listNetworkTopology"));
            if (topology instanceof JsonArray nodes) {
                nodes.getValuesAs(JsonObject.class).forEach(node -> members.add(node.getString("nodeID")));
            }
            for (String connection : strings(request("broker", "_AMQ_Attribute", "ClusterConnectionNames"))) {
                if (parsed(request("clusterconnection." + connection, "_AMQ_Attribute", "Nodes"))
                        instanceof JsonObject nodes) {
                    members.addAll(nodes.keySet());
                }
            }
        } catch (RuntimeException e) {
            throw new BrokerCannotTell("Artemis answered the members of its cluster unexpectedly: " + e, e);
        }
        members.addAll(ArtemisControl.nodesOnTheWayTo(queueNames()));
        return members;
    }

    @Override
    public List<String> queueNames() throws BrokerCannotTell {
        return strings(request("broker", "_AMQ_Attribute", "QueueNames"));
    }

    @Override
    public List<String> addressNames() throws BrokerCannotTell {
        return strings(request("broker", "_AMQ_Attribute", "AddressNames"));
    }

    @Override
    public List<String> queuesOf(String address) throws BrokerCannotTell {
        return strings(request("address." + address, "_AMQ_Attribute", "QueueNames"));
    }

    @Override
    public long messageCount(String queue) throws BrokerCannotTell {
        JsonValue count = request("queue." + queue, "_AMQ_Attribute", "MessageCount");
        if (!(count instanceof JsonNumber number)) {
            throw new BrokerCannotTell("Artemis answered the message count of " + queue + " with " + count);
        }
        return number.longValue();
    }

    @Override
    public Set<String> deadLetterAndExpiryAddresses(String queue) throws BrokerCannotTell {
        Set<String> addresses = new TreeSet<>();
        for (String attribute : List.of("DeadLetterAddress", "ExpiryAddress")) {
            if (request("queue." + queue, "_AMQ_Attribute", attribute) instanceof JsonString text
                    && !text.getString().isEmpty()) {
                addresses.add(text.getString());
            }
        }
        return addresses;
    }

    @Override
    public String listing(String queue, Listing listing) throws BrokerCannotTell {
        JsonArrayBuilder parameters = Json.createArrayBuilder();
        if (listing == Listing.AVAILABLE) {
            parameters.add(""); // no filter
        }
        return text(request("queue." + queue, "_AMQ_OperationName", listing.operation, parameters), listing.operation);
    }

    @Override
    public void browse(String queue, BrokerConnections.Visitor visitor) throws JMSException {
        try (QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                visitor.visit((Message) messages.nextElement());
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(connection);
    }

    private JsonValue request(String resource, String kind, String name) throws BrokerCannotTell {
        return request(resource, kind, name, Json.createArrayBuilder());
    }

    /**
     * One request and its reply, matched by correlation ID: a reply that came too late for an earlier
     * request is passed over.
     */
    private JsonValue request(String resource, String kind, String name, JsonArrayBuilder parameters)
            throws BrokerCannotTell {
        try {
            String correlation = UUID.randomUUID().toString();
            Message request = session.createTextMessage(parameters.build().toString());
            request.setStringProperty("_AMQ_ResourceName", resource);
            request.setStringProperty(kind, name);
            request.setJMSReplyTo(replyQueue);
            request.setJMSCorrelationID(correlation);
            requests.send(request);
            long deadline = System.currentTimeMillis() + REPLY_MILLIS;
            for (long left = REPLY_MILLIS; left > 0; left = deadline - System.currentTimeMillis()) {
                Message reply = replies.receive(left);
                if (reply == null) {
                    break;
                }
                if (!correlation.equals(reply.getJMSCorrelationID())) {
                    continue;
                }
                JsonValue result = firstOf(reply.getBody(String.class));
                if (!reply.getBooleanProperty("_AMQ_OperationSucceeded")) {
                    throw new BrokerCannotTell("Artemis refused " + name + " of " + resource + ": " + result);
                }
                return result;
            }
            throw new BrokerCannotTell(
                    "Artemis did not answer " + name + " of " + resource + " within " + REPLY_MILLIS + " ms");
        } catch (JMSException | JMSRuntimeException | JsonException e) {
            throw new BrokerCannotTell("Artemis could not be asked " + name + " of " + resource + ": " + e, e);
        }
    }

    private static JsonValue firstOf(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "[]" : body))) {
            JsonArray values = reader.readArray();
            return values.isEmpty() ? JsonValue.NULL : values.get(0);
        }
    }

    /** An answer that is JSON written into a string (as {@code listNetworkTopology}'s is), read. */
    private static JsonValue parsed(JsonValue value) {
        if (!(value instanceof JsonString text)) {
            return value;
        }
        try (JsonReader reader = Json.createReader(new StringReader(text.getString()))) {
            return reader.readValue();
        } catch (JsonException e) {
            return value;
        }
    }

    private static List<String> strings(JsonValue value) throws BrokerCannotTell {
        if (!(value instanceof JsonArray array)) {
            throw new BrokerCannotTell("Artemis answered a list of names with " + value);
        }
        return array.getValuesAs(JsonString.class).stream()
                .map(JsonString::getString)
                .sorted()
                .toList();
    }

    private static String text(JsonValue value, String what) throws BrokerCannotTell {
        if (value instanceof JsonString text) {
            return text.getString();
        }
        throw new BrokerCannotTell("Artemis answered " + what + " with " + value);
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (JMSException | JMSRuntimeException e) {
                // the look is over, or never began; the broker drops the connection's temporary queue
            }
        }
    }
}
