package org.exactlyonce.internal.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.exactlyonce.internal.message.MessageCopies.Copy;
import org.exactlyonce.internal.message.MessageCopies.Headers;
import org.exactlyonce.testing.InJvmBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A parked or outgoing message is kept as a {@link Copy} and sent again from it: through a real JMS
 * provider (an Artemis broker in this JVM), a message received, copied, rebuilt and sent comes back with
 * the same type, body, producer's headers and typed application properties.
 */
class MessageCopiesTest {

    @RegisterExtension
    static final InJvmBroker BROKER = new InJvmBroker();

    private JMSContext jms;
    private Queue parked;
    private Queue replayed;

    @BeforeEach
    void connect() {
        jms = BROKER.connections().createContext();
        parked = jms.createQueue("parked-" + System.nanoTime());
        replayed = jms.createQueue("replayed-" + System.nanoTime());
    }

    @AfterEach
    void close() {
        jms.close();
    }

    @Test
    void aTextMessageComesBackWithItsHeadersAndEveryPropertyTyped() throws JMSException {
        TextMessage sent = jms.createTextMessage("credit \u6ce8 \uD83D\uDE00 with a \0 inside");
        sent.setJMSCorrelationID("order-17");
        sent.setJMSType("credit");
        sent.setJMSReplyTo(jms.createQueue("answers"));
        everyPropertyType(sent);
        jms.createProducer()
                .setPriority(7)
                .setDeliveryMode(DeliveryMode.NON_PERSISTENT)
                .send(parked, sent);

        Message original = receive(parked);
        Message replay = replay(original);

        assertEquals(
                ((TextMessage) original).getText(),
                assertInstanceOf(TextMessage.class, replay).getText());
        assertEquals("order-17", replay.getJMSCorrelationID());
        assertEquals("credit", replay.getJMSType());
        assertEquals("answers", ((Queue) replay.getJMSReplyTo()).getQueueName());
        assertEquals(7, replay.getJMSPriority());
        assertEquals(DeliveryMode.NON_PERSISTENT, replay.getJMSDeliveryMode());
        assertEquals(applicationProperties(original), applicationProperties(replay));
        assertEquals(10, applicationProperties(replay).size());
    }

    @Test
    void everyByteOfABytesBodyComesBack() throws JMSException {
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        BytesMessage sent = jms.createBytesMessage();
        sent.writeBytes(body);
        jms.createProducer().send(parked, sent);

        Message replay = replay(receive(parked));

        assertArrayEquals(body, assertInstanceOf(BytesMessage.class, replay).getBody(byte[].class));
        assertEquals(DeliveryMode.PERSISTENT, replay.getJMSDeliveryMode());
    }

    @Test
    void aMapBodyComesBackWithEveryValueTyped() throws JMSException {
        MapMessage sent = jms.createMapMessage();
        everyValueType().forEach((name, value) -> {
            try {
                sent.setObject(name, value);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        jms.createProducer().send(parked, sent);

        MapMessage replay = assertInstanceOf(MapMessage.class, replay(receive(parked)));

        for (Map.Entry<String, Object> entry : everyValueType().entrySet()) {
            Object back = replay.getObject(entry.getKey());
            if (entry.getValue() instanceof byte[] bytes) {
                assertArrayEquals(bytes, (byte[]) back);
            } else {
                assertEquals(entry.getValue(), back, entry.getKey());
                assertEquals(entry.getValue().getClass(), back.getClass(), entry.getKey());
            }
        }
    }

    @Test
    void aStreamBodyComesBackInOrderWithEveryValueTyped() throws JMSException {
        StreamMessage sent = jms.createStreamMessage();
        for (Object value : everyValueType().values()) {
            sent.writeObject(value);
        }
        jms.createProducer().send(parked, sent);
        StreamMessage original = (StreamMessage) receive(parked);
        original.readObject(); // a consumer that failed half-way through the stream

        StreamMessage replay = assertInstanceOf(StreamMessage.class, replay(original));

        for (Object value : everyValueType().values()) {
            Object back = replay.readObject();
            if (value instanceof byte[] bytes) {
                assertArrayEquals(bytes, (byte[]) back);
            } else {
                assertEquals(value, back);
            }
        }
    }

    @Test
    void anObjectBodyComesBackAsTheSameObject() throws JMSException {
        ArrayList<String> order = new ArrayList<>(List.of("credit", "17", "\u6ce8"));
        jms.createProducer().send(parked, jms.createObjectMessage(order));

        Message replay = replay(receive(parked));

        assertEquals(order, assertInstanceOf(ObjectMessage.class, replay).getObject());
    }

    @Test
    void aMessageWithoutABodyComesBackWithItsProperties() throws JMSException {
        Message sent = jms.createMessage();
        sent.setStringProperty("command", "close-account");
        jms.createProducer().send(parked, sent);

        Message replay = replay(receive(parked));

        assertEquals(BodyType.NONE, BodyType.of(replay));
        assertEquals("close-account", replay.getStringProperty("command"));
    }

    @Test
    void aNullTextComesBackNull() throws JMSException {
        jms.createProducer().send(parked, jms.createTextMessage(null));

        Message replay = replay(receive(parked));

        assertNull(assertInstanceOf(TextMessage.class, replay).getText());
    }

    @Test
    void theMessageGroupIsKeptAndTheBrokersDeliveryCountIsNot() throws JMSException {
        Message sent = jms.createTextMessage("in a group");
        sent.setStringProperty("JMSXGroupID", "account-9");
        sent.setIntProperty("JMSXGroupSeq", 3);
        jms.createProducer().send(parked, sent);
        Message original = receive(parked);

        Copy copy = MessageCopies.of(original);
        Message replay = replay(original);

        assertEquals("account-9", replay.getStringProperty("JMSXGroupID"));
        assertEquals(3, replay.getIntProperty("JMSXGroupSeq"));
        assertTrue(!copy.properties().contains("JMSXDeliveryCount"), copy.properties());
    }

    @Test
    void aTemporaryReplyToIsRecordedForTheOperatorButNotRestored() throws JMSException {
        Message sent = jms.createTextMessage("answer me");
        sent.setJMSReplyTo(jms.createTemporaryQueue());
        jms.createProducer().send(parked, sent);
        Message original = receive(parked);

        Copy copy = MessageCopies.of(original);
        Message replay = replay(original);

        assertTrue(copy.headers().contains("\"kind\":\"temporary\""), copy.headers());
        assertNull(replay.getJMSReplyTo());
    }

    @Test
    void aTopicReplyToIsRestoredAsATopic() throws JMSException {
        Message sent = jms.createTextMessage("answer on the topic");
        sent.setJMSReplyTo(jms.createTopic("answers"));
        jms.createProducer().send(parked, sent);

        Message replay = replay(receive(parked));

        assertEquals("answers", ((jakarta.jms.Topic) replay.getJMSReplyTo()).getTopicName());
    }

    @Test
    void anOutgoingMessageMadeFromValuesIsSentAsAProducerWouldHaveSentIt() throws JMSException {
        Copy copy = MessageCopies.of(
                BodyType.MAP,
                everyValueType(),
                new Headers(2, false, "order-18", "receipt"),
                Map.of("amount", 500L, "currency", "EUR"));

        MessageCopies.producerFor(copy, jms).send(replayed, MessageCopies.rebuild(copy, jms));
        MapMessage sent = assertInstanceOf(MapMessage.class, receive(replayed));

        assertEquals(
                Collections.list(sent.getMapNames()).size(), everyValueType().size());
        assertEquals("order-18", sent.getJMSCorrelationID());
        assertEquals("receipt", sent.getJMSType());
        assertEquals(2, sent.getJMSPriority());
        assertEquals(DeliveryMode.NON_PERSISTENT, sent.getJMSDeliveryMode());
        assertEquals(500L, sent.getObjectProperty("amount"));
        assertEquals("EUR", sent.getObjectProperty("currency"));
    }

    @Test
    void aLongTextIsPreviewedInItsFirstCharacters() throws JMSException {
        jms.createProducer().send(parked, jms.createTextMessage("\u6ce8".repeat(1_000)));

        Copy copy = MessageCopies.of(receive(parked));

        assertEquals(
                MessageCopies.PREVIEW_LENGTH,
                copy.preview().codePointCount(0, copy.preview().length()));
        assertTrue(copy.preview().endsWith("…"));
        assertEquals(3_000, copy.body().length, "the body itself is kept whole");
    }

    /** Copies the received message, rebuilds it, sends the rebuilt one as a replay would and receives it. */
    private Message replay(Message original) throws JMSException {
        Copy copy = MessageCopies.of(original);
        MessageCopies.producerFor(copy, jms).send(replayed, MessageCopies.rebuild(copy, jms));
        return receive(replayed);
    }

    private Message receive(Queue queue) {
        Message message = jms.createConsumer(queue).receive(5_000);
        assertTrue(message != null, "nothing arrived on " + queue);
        return message;
    }

    private static void everyPropertyType(Message message) throws JMSException {
        message.setBooleanProperty("flag", true);
        message.setByteProperty("byte", (byte) -8);
        message.setShortProperty("short", (short) 300);
        message.setIntProperty("int", 42);
        message.setLongProperty("long", Long.MIN_VALUE);
        message.setFloatProperty("float", 0.1f);
        message.setDoubleProperty("double", Double.MAX_VALUE);
        message.setStringProperty("string", "\u6ce8");
        message.setStringProperty("empty", "");
        message.setObjectProperty("object", 7);
    }

    /** Every value a map or stream body may hold, one of each type. */
    private static Map<String, Object> everyValueType() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("boolean", true);
        values.put("byte", (byte) -8);
        values.put("short", (short) 300);
        values.put("char", 'x');
        values.put("int", 42);
        values.put("long", Long.MIN_VALUE);
        values.put("float", 0.1f);
        values.put("double", Double.NaN);
        values.put("string", "text with \0 and \u6ce8");
        values.put("bytes", new byte[] {0, -1, 127});
        return values;
    }

    /** Name to value of the properties a producer sets, their types visible in the values' classes. */
    private static Map<String, Object> applicationProperties(Message message) throws JMSException {
        Map<String, Object> properties = new TreeMap<>();
        for (Object name : Collections.list(message.getPropertyNames())) {
            if (!((String) name).startsWith("JMSX")) {
                properties.put((String) name, message.getObjectProperty((String) name));
            }
        }
        return properties;
    }
}
