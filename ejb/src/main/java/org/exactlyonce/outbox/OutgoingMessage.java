package org.exactlyonce.outbox;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.message.MessageCopies;
import org.exactlyonce.internal.message.MessageCopies.Copy;
import org.exactlyonce.internal.message.MessageCopies.Headers;

/**
 * A message for {@link Outbox#send}: its type and body, the headers a producer sets and its
 * properties. Made by one of the static methods, then completed, for example
 * {@code OutgoingMessage.text(json).withProperty("account", "acme").withCorrelationId(orderId)}. Values
 * of properties and of map and stream bodies are those JMS allows: {@code Boolean}, {@code Byte},
 * {@code Short}, {@code Integer}, {@code Long}, {@code Float}, {@code Double}, {@code String}, and in
 * bodies also {@code Character} and {@code byte[]}.
 */
public final class OutgoingMessage {

    private static final Set<Class<?>> PROPERTY_TYPES = Set.of(
            Boolean.class, Byte.class, Short.class, Integer.class, Long.class, Float.class, Double.class, String.class);

    private final BodyType type;
    private final Object body;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private int priority = Message.DEFAULT_PRIORITY;
    private boolean persistent = true;
    private String correlationId;
    private String jmsType;

    private OutgoingMessage(BodyType type, Object body) {
        this.type = type;
        this.body = body;
    }

    /** A {@code TextMessage}. */
    public static OutgoingMessage text(String text) {
        return new OutgoingMessage(BodyType.TEXT, text);
    }

    /** A {@code BytesMessage}; the bytes are copied. */
    public static OutgoingMessage bytes(byte[] bytes) {
        return new OutgoingMessage(BodyType.BYTES, bytes.clone());
    }

    /** A {@code MapMessage}; the entries are copied. */
    public static OutgoingMessage map(Map<String, ?> entries) {
        Map<String, Object> copy = new LinkedHashMap<>();
        entries.forEach((name, value) -> copy.put(name, bodyValue(name, value)));
        return new OutgoingMessage(BodyType.MAP, copy);
    }

    /** A {@code StreamMessage} of these values, in order; the list is copied. */
    public static OutgoingMessage stream(List<?> values) {
        List<Object> copy = new ArrayList<>();
        values.forEach(value -> copy.add(bodyValue("stream value", value)));
        return new OutgoingMessage(BodyType.STREAM, copy);
    }

    /** An {@code ObjectMessage}; the object is serialized when the message is written to the outbox. */
    public static OutgoingMessage object(Serializable object) {
        return new OutgoingMessage(BodyType.OBJECT, object);
    }

    /** A plain {@code Message}: headers and properties only. */
    public static OutgoingMessage empty() {
        return new OutgoingMessage(BodyType.NONE, null);
    }

    /**
     * Sets a property. The engine sets one more, the message's ID, in the property its consumers read
     * IDs from ({@code exactlyonce.message-id.property}); a property of that name set here is refused.
     */
    public OutgoingMessage withProperty(String name, Object value) {
        if (name == null || name.isBlank() || name.startsWith("JMS")) {
            throw new IllegalArgumentException(
                    "a property needs a name that does not start with JMS, not '" + name + "'");
        }
        if (value == null || !PROPERTY_TYPES.contains(value.getClass())) {
            throw new IllegalArgumentException("property " + name + " must be a boolean, a number or a String, is "
                    + (value == null ? "null" : value.getClass().getName()));
        }
        properties.put(name, value);
        return this;
    }

    /** Sets {@code JMSCorrelationID}. */
    public OutgoingMessage withCorrelationId(String correlationId) {
        this.correlationId = correlationId;
        return this;
    }

    /** Sets {@code JMSType}. */
    public OutgoingMessage withType(String jmsType) {
        this.jmsType = jmsType;
        return this;
    }

    /** Sends with this priority, from 0 to 9; 4 unless set. */
    public OutgoingMessage withPriority(int priority) {
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("a JMS priority is from 0 to 9, not " + priority);
        }
        this.priority = priority;
        return this;
    }

    /** Sends it non-persistent: a broker that restarts may lose it. Persistent unless set. */
    public OutgoingMessage nonPersistent() {
        this.persistent = false;
        return this;
    }

    boolean hasProperty(String name) {
        return properties.containsKey(name);
    }

    /** @throws JMSException when an object body cannot be serialized */
    Copy copy() throws JMSException {
        return MessageCopies.of(type, body, new Headers(priority, persistent, correlationId, jmsType), properties);
    }

    private static Object bodyValue(String name, Object value) {
        if (value != null
                && !PROPERTY_TYPES.contains(value.getClass())
                && !(value instanceof Character)
                && !(value instanceof byte[])) {
            throw new IllegalArgumentException(
                    name + " must be a boolean, a number, a character, a String or bytes, is "
                            + value.getClass().getName());
        }
        return value instanceof byte[] bytes ? bytes.clone() : value;
    }
}
