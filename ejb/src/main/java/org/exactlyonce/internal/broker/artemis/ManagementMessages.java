package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * Artemis' management API as plain Jakarta Messaging, for a broker of its own: a request is a text
 * message to the management address naming a resource ({@code broker}, {@code queue.<name>}, {@code
 * address.<name>}) and an operation or attribute, its parameters a JSON array; the reply, on a temporary
 * queue, says whether it succeeded and carries the result as the first element of a JSON array. No
 * Artemis class is needed in the application; the engine's broker user needs the {@code manage}
 * permission on the management address, and may create temporary queues.
 */
final class ManagementMessages implements ArtemisControl {

    private static final String MANAGEMENT_ADDRESS = "activemq.management";
    private static final long REPLY_MILLIS = 10_000;

    private final BrokerConnections connections;

    ManagementMessages(BrokerConnections connections) {
        this.connections = connections;
    }

    @Override
    public String nodeId() throws BrokerCannotTell {
        return text(request("broker", "_AMQ_Attribute", "NodeID"), "NodeID");
    }

    @Override
    public List<String> queuesOf(String address) throws BrokerCannotTell {
        JsonValue names = request("address." + address, "_AMQ_Attribute", "QueueNames");
        if (!(names instanceof JsonArray array)) {
            throw new BrokerCannotTell("Artemis answered the queues of " + address + " with " + names);
        }
        return array.getValuesAs(JsonString.class).stream()
                .map(JsonString::getString)
                .sorted()
                .toList();
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
    public Optional<String> deadLetterAddress(String queue) throws BrokerCannotTell {
        JsonValue address = request("queue." + queue, "_AMQ_Attribute", "DeadLetterAddress");
        return address instanceof JsonString text && !text.getString().isEmpty()
                ? Optional.of(text.getString())
                : Optional.empty();
    }

    @Override
    public String listing(String queue, Listing listing) throws BrokerCannotTell {
        JsonArrayBuilder parameters = Json.createArrayBuilder();
        if (listing == Listing.AVAILABLE) {
            parameters.add(""); // no filter
        }
        return text(request("queue." + queue, "_AMQ_OperationName", listing.operation, parameters), listing.operation);
    }

    private JsonValue request(String resource, String kind, String name) throws BrokerCannotTell {
        return request(resource, kind, name, Json.createArrayBuilder());
    }

    /**
     * One request and its reply, on a connection of its own, closed as a whole: inside a server, Artemis'
     * resource adapter deletes a connection's temporary queues when the connection closes, and a session
     * closed before it (as a {@code JMSContext} closes) is back in the pool, where another thread may have
     * taken it by the time the deletion runs on it.
     */
    private JsonValue request(String resource, String kind, String name, JsonArrayBuilder parameters)
            throws BrokerCannotTell {
        try (Connection connection = connections.connectionFactory().createConnection()) {
            Session session = connection.createSession();
            TemporaryQueue replies = session.createTemporaryQueue();
            Message request = session.createTextMessage(parameters.build().toString());
            request.setStringProperty("_AMQ_ResourceName", resource);
            request.setStringProperty(kind, name);
            request.setJMSReplyTo(replies);
            session.createProducer(session.createQueue(MANAGEMENT_ADDRESS)).send(request);
            MessageConsumer consumer = session.createConsumer(replies);
            connection.start();
            Message reply = consumer.receive(REPLY_MILLIS);
            if (reply == null) {
                throw new BrokerCannotTell(
                        "Artemis did not answer " + name + " of " + resource + " within " + REPLY_MILLIS + " ms");
            }
            JsonValue result = firstOf(reply.getBody(String.class));
            if (!reply.getBooleanProperty("_AMQ_OperationSucceeded")) {
                throw new BrokerCannotTell("Artemis refused " + name + " of " + resource + ": " + result);
            }
            return result;
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

    private static String text(JsonValue value, String what) throws BrokerCannotTell {
        if (value instanceof JsonString text) {
            return text.getString();
        }
        throw new BrokerCannotTell("Artemis answered " + what + " with " + value);
    }
}
