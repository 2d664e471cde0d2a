package org.exactlyonce.harness;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.exactlyonce.sample.ledger.CreditQueues;

/**
 * Sends messages a well-behaved producer never would — no ID, an empty or huge one, a type the
 * consumer refuses, a body that is no credit order — to show how the consumer parks them. Only on a
 * server with fault injection enabled.
 */
@Path("/test-messages")
@Consumes(MediaType.APPLICATION_JSON)
public class TestMessagesResource {

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = CreditQueues.CREDITS)
    Queue credits;

    @Inject
    FaultInjection faults;

    @Inject
    OutboxWrites outbox;

    /**
     * Sends one message as described (see {@link RawMessage}), with the ID property only when given.
     */
    @POST
    public Response send(RawMessage raw) throws JMSException {
        faults.refuseUnlessEnabled();
        String body = padded(raw.body() == null ? "" : raw.body(), raw.padTo());
        Message message = switch (raw.type() == null ? "text" : raw.type()) {
            case "text" -> jms.createTextMessage(raw.body() == null ? null : body);
            case "bytes" -> bytesMessage(body.getBytes(StandardCharsets.UTF_8));
            case "map" -> mapMessage(body);
            case "stream" -> streamMessage(body);
            case "object" -> jms.createObjectMessage(new ArrayList<>(List.of(body, "second element")));
            case "plain" -> jms.createMessage();
            default -> throw new BadRequestException("no such message type: " + raw.type());
        };
        if (raw.messageId() != null) {
            message.setStringProperty("messageId", raw.messageId());
        }
        withHeaders(message, raw);
        producer(raw).send(credits, message);
        return Response.accepted().build();
    }

    /**
     * Writes a text message for the named queue to the outbox, in a transaction of its own, and answers
     * its ID: a queue the broker does not have shows how the outbox keeps a message it cannot send.
     */
    @POST
    @Path("/outbox")
    @Produces(MediaType.TEXT_PLAIN)
    public String sendThroughOutbox(OutboxMessage message) throws SQLException {
        faults.refuseUnlessEnabled();
        if (message == null || message.queue() == null || message.queue().isBlank()) {
            throw new BadRequestException("name the queue");
        }
        Queue named = message::queue; // not the broker's: a broker may refuse to make one for a queue it lacks
        return outbox.write(named, message.text());
    }

    /** A message for the outbox: the queue's name on the broker, and the text. */
    public record OutboxMessage(String queue, String text) {}

    /** The body with {@code x}s up to the size asked for: large bodies without large requests. */
    private static String padded(String body, int padTo) {
        return padTo > body.length() ? body + "x".repeat(padTo - body.length()) : body;
    }

    private JMSProducer producer(RawMessage raw) {
        JMSProducer producer = jms.createProducer().setDisableMessageID(raw.disableMessageId());
        return raw.priority() == null ? producer : producer.setPriority(raw.priority());
    }

    private void withHeaders(Message message, RawMessage raw) throws JMSException {
        message.setJMSCorrelationID(raw.correlationId());
        message.setJMSType(raw.jmsType());
        if (raw.replyTo() != null) {
            message.setJMSReplyTo(jms.createQueue(raw.replyTo()));
        }
        if (raw.groupId() != null) {
            message.setStringProperty("JMSXGroupID", raw.groupId());
            message.setIntProperty("JMSXGroupSeq", 7);
        }
        if (raw.typedProperties()) {
            message.setIntProperty("anInt", 42);
            message.setLongProperty("aLong", Long.MAX_VALUE);
            message.setDoubleProperty("aDouble", 0.1);
            message.setBooleanProperty("aBoolean", true);
            message.setShortProperty("aShort", (short) -3);
            message.setByteProperty("aByte", (byte) 8);
            message.setFloatProperty("aFloat", 1.5f);
        }
    }

    private BytesMessage bytesMessage(byte[] body) throws JMSException {
        BytesMessage message = jms.createBytesMessage();
        message.writeBytes(body);
        return message;
    }

    /** A map of one value of each type, the text among them. */
    private MapMessage mapMessage(String text) throws JMSException {
        MapMessage message = jms.createMapMessage();
        message.setString("text", text);
        message.setInt("int", 42);
        message.setLong("long", -7L);
        message.setDouble("double", 2.5);
        message.setBoolean("boolean", true);
        message.setChar("char", 'x');
        message.setBytes("bytes", new byte[] {0, 1, (byte) 255});
        return message;
    }

    /** The same values as the map's, in a stream. */
    private StreamMessage streamMessage(String text) throws JMSException {
        StreamMessage message = jms.createStreamMessage();
        message.writeString(text);
        message.writeInt(42);
        message.writeLong(-7L);
        message.writeDouble(2.5);
        message.writeBoolean(true);
        message.writeChar('x');
        message.writeBytes(new byte[] {0, 1, (byte) 255});
        return message;
    }

    /**
     * A message as a test wants it sent.
     *
     * @param type text (the default), bytes, map, stream, object (a list of the body and another string)
     *     or plain
     * @param disableMessageId asks the producer for no {@code JMSMessageID}
     * @param replyTo a queue name for {@code JMSReplyTo}
     * @param groupId a message group, sent with sequence number 7
     * @param typedProperties adds one property of each primitive type
     * @param padTo the body's length, reached with {@code x}s appended; 0 for the body as it is
     */
    public record RawMessage(
            String messageId,
            String type,
            String body,
            boolean disableMessageId,
            String correlationId,
            String jmsType,
            String replyTo,
            Integer priority,
            String groupId,
            boolean typedProperties,
            int padTo) {}
}
