package org.exactlyonce.internal.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

/**
 * What of a JMS message is kept when it is parked or written to the outbox, and the message rebuilt
 * from that to send it:
 * its type and whole body, the headers a producer sets (correlation ID, type, reply-to, priority,
 * delivery mode) and every application property with its Java type, the message group's included.
 * The broker's other {@code JMSX…} properties are the broker's to set again; provider-specific
 * {@code JMS_…} ones are kept for the operator but set by the provider on the replayed message.
 */
public final class MessageCopies {

    /** Characters of a body shown where parked messages are listed. */
    public static final int PREVIEW_LENGTH = 300;

    private static final String GROUP_ID = "JMSXGroupID";
    private static final String GROUP_SEQ = "JMSXGroupSeq";

    private MessageCopies() {}

    /**
     * A message's content, as a parked or an outgoing message keeps it.
     *
     * @param body the body as bytes: text in UTF-8, map and stream bodies as JSON of typed values, an
     *     object in Java serialization; {@code null} for a plain message or a null body
     * @param headers JSON of the headers a producer sets
     * @param properties JSON of the application properties, name to typed value
     */
    public record Copy(BodyType bodyType, byte[] body, String preview, String headers, String properties)
            implements StoredMessage {}

    /** A message's content as a table keeps it, from which {@link #rebuild} makes a message to send. */
    public interface StoredMessage {
        BodyType bodyType();

        /** As {@link Copy} keeps it. */
        byte[] body();

        /** JSON of the headers a producer sets. */
        String headers();

        /** JSON of the application properties, name to typed value. */
        String properties();
    }

    /**
     * @throws JMSException when the message cannot be read whole, such as an object whose class is not
     *     visible: then it cannot be kept, and the caller hands it back to the broker
     */
    public static Copy of(Message message) throws JMSException {
        BodyType type = BodyType.of(message);
        byte[] body = bodyOf(type, message);
        return new Copy(type, body, previewOf(type, body), headersOf(message).toString(), propertiesOf(message));
    }

    /**
     * The content of a message made from values rather than read from a received one: an outgoing
     * message, which is then kept as a parked one is.
     *
     * @param body a {@code String} for {@code TEXT}, a {@code byte[]} for {@code BYTES}, a {@code Map}
     *     for {@code MAP} and a {@code List} for {@code STREAM}, each value a JMS-typed one, a {@code
     *     Serializable} for {@code OBJECT}, {@code null} for {@code NONE}
     * @param headers the headers a producer sets
     * @param properties the application properties, each a JMS-typed value
     */
    public static Copy of(BodyType type, Object body, Headers headers, Map<String, Object> properties)
            throws JMSException {
        byte[] bytes = switch (type) {
            case TEXT -> utf8((String) body);
            case BYTES -> ((byte[]) body).clone();
            case MAP -> utf8(typedMap((Map<?, ?>) body).toString());
            case STREAM -> utf8(typedList((List<?>) body).toString());
            case OBJECT -> serialized((Serializable) body);
            case NONE -> null;
        };
        return new Copy(
                type,
                bytes,
                previewOf(type, bytes),
                headers.json().toString(),
                typedMap(properties).toString());
    }

    /**
     * The headers a producer sets on a message it sends.
     *
     * @param correlationId {@code JMSCorrelationID}, or {@code null}
     * @param type {@code JMSType}, or {@code null}
     */
    public record Headers(int priority, boolean persistent, String correlationId, String type) {

        JsonObject json() {
            JsonObjectBuilder json = Json.createObjectBuilder()
                    .add("priority", priority)
                    .add("deliveryMode", persistent ? "PERSISTENT" : "NON_PERSISTENT");
            if (correlationId != null) {
                json.add("correlationId", correlationId);
            }
            if (type != null) {
                json.add("type", type);
            }
            return json.build();
        }
    }

    private static JsonObject typedMap(Map<?, ?> values) {
        JsonObjectBuilder map = Json.createObjectBuilder();
        values.forEach((name, value) -> map.add((String) name, TypedValues.typed(value)));
        return map.build();
    }

    private static JsonArray typedList(List<?> values) {
        JsonArrayBuilder list = Json.createArrayBuilder();
        values.forEach(value -> list.add(TypedValues.typed(value)));
        return list.build();
    }

    /** The application properties as {@code {"name": {"type": "String", "value": "…"}}}. */
    static String propertiesOf(Message message) throws JMSException {
        return propertiesOf(message, false);
    }

    /** @param byName in the order of their names, not the provider's */
    static String propertiesOf(Message message, boolean byName) throws JMSException {
        JsonObjectBuilder properties = Json.createObjectBuilder();
        for (String name : names(message.getPropertyNames(), byName)) {
            Object value = message.getObjectProperty(name);
            if (isApplications(name) && value != null) {
                properties.add(name, TypedValues.typed(value));
            }
        }
        return properties.build().toString();
    }

    /** The stored message as a new message, ready to send with {@link #producerFor}. */
    public static Message rebuild(StoredMessage stored, JMSContext jms) throws JMSException {
        Message message = withBody(stored.bodyType(), stored.body(), jms);
        JsonObject headers = parse(stored.headers());
        message.setJMSCorrelationID(headers.getString("correlationId", null));
        message.setJMSType(headers.getString("type", null));
        if (headers.get("replyTo") instanceof JsonObject replyTo) {
            message.setJMSReplyTo(destination(replyTo, jms));
        }
        for (Map.Entry<String, JsonValue> property : parse(stored.properties()).entrySet()) {
            if (!isProviders(property.getKey())) {
                message.setObjectProperty(
                        property.getKey(), TypedValues.value(property.getValue().asJsonObject()));
            }
        }
        return message;
    }

    /** A producer that sends with the stored message's priority and delivery mode, which a send sets. */
    public static JMSProducer producerFor(StoredMessage stored, JMSContext jms) {
        JsonObject headers = parse(stored.headers());
        return jms.createProducer()
                .setPriority(headers.getInt("priority", Message.DEFAULT_PRIORITY))
                .setDeliveryMode(
                        "NON_PERSISTENT".equals(headers.getString("deliveryMode", null))
                                ? DeliveryMode.NON_PERSISTENT
                                : DeliveryMode.PERSISTENT);
    }

    /** {@code JMS_<vendor>_…}: kept for the operator to read, but the provider's to set on a new message. */
    private static boolean isProviders(String property) {
        return property.startsWith("JMS_");
    }

    private static boolean isApplications(String property) {
        return !property.startsWith("JMSX") || property.equals(GROUP_ID) || property.equals(GROUP_SEQ);
    }

    static byte[] bodyOf(BodyType type, Message message) throws JMSException {
        return switch (type) {
            case TEXT -> utf8(((TextMessage) message).getText());
            case BYTES -> MessageBodies.bytesOf(message);
            case MAP -> utf8(mapOf((MapMessage) message, false).toString());
            case STREAM -> utf8(streamOf((StreamMessage) message).toString());
            case OBJECT -> serialized(((ObjectMessage) message).getObject());
            case NONE -> null;
        };
    }

    /** @param byName in the order of their names, not the provider's */
    static JsonObject mapOf(MapMessage message, boolean byName) throws JMSException {
        JsonObjectBuilder map = Json.createObjectBuilder();
        for (String name : names(message.getMapNames(), byName)) {
            map.add(name, TypedValues.typed(message.getObject(name)));
        }
        return map.build();
    }

    private static List<String> names(Enumeration<?> names, boolean sorted) {
        List<String> listed = new ArrayList<>();
        Collections.list(names).forEach(name -> listed.add((String) name));
        if (sorted) {
            Collections.sort(listed);
        }
        return listed;
    }

    private static JsonArray streamOf(StreamMessage message) throws JMSException {
        JsonArrayBuilder values = Json.createArrayBuilder();
        message.reset(); // the consumer may have read part of it
        try {
            while (true) {
                values.add(TypedValues.typed(message.readObject()));
            }
        } catch (MessageEOFException end) {
            message.reset();
        }
        return values.build();
    }

    private static byte[] serialized(Serializable object) throws JMSException {
        if (object == null) {
            return null;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            JMSException failure = new JMSException("the object body cannot be serialized again: " + e);
            failure.initCause(e);
            throw failure;
        }
        return bytes.toByteArray();
    }

    private static JsonObject headersOf(Message message) throws JMSException {
        JsonObjectBuilder headers = Json.createObjectBuilder()
                .add("priority", message.getJMSPriority())
                .add(
                        "deliveryMode",
                        message.getJMSDeliveryMode() == DeliveryMode.NON_PERSISTENT ? "NON_PERSISTENT" : "PERSISTENT");
        if (message.getJMSCorrelationID() != null) {
            headers.add("correlationId", message.getJMSCorrelationID());
        }
        if (message.getJMSType() != null) {
            headers.add("type", message.getJMSType());
        }
        if (message.getJMSReplyTo() != null) {
            headers.add("replyTo", replyTo(message.getJMSReplyTo()));
        }
        return headers.build();
    }

    /** A temporary destination is recorded, for the operator, but not restored: it died with its connection. */
    private static JsonObject replyTo(Destination destination) throws JMSException {
        if (destination instanceof TemporaryQueue || destination instanceof TemporaryTopic) {
            return Json.createObjectBuilder()
                    .add("kind", "temporary")
                    .add("name", destination.toString())
                    .build();
        }
        return destination instanceof Topic topic
                ? Json.createObjectBuilder()
                        .add("kind", "topic")
                        .add("name", topic.getTopicName())
                        .build()
                : Json.createObjectBuilder()
                        .add("kind", "queue")
                        .add("name", ((Queue) destination).getQueueName())
                        .build();
    }

    private static Destination destination(JsonObject replyTo, JMSContext jms) {
        return switch (replyTo.getString("kind")) {
            case "queue" -> jms.createQueue(replyTo.getString("name"));
            case "topic" -> jms.createTopic(replyTo.getString("name"));
            default -> null;
        };
    }

    private static Message withBody(BodyType type, byte[] body, JMSContext jms) throws JMSException {
        return switch (type) {
            case TEXT -> jms.createTextMessage(body == null ? null : new String(body, StandardCharsets.UTF_8));
            case BYTES -> bytesMessage(body, jms);
            case MAP -> mapMessage(body, jms);
            case STREAM -> streamMessage(body, jms);
            case OBJECT -> jms.createObjectMessage(body == null ? null : new SerializedObject(body));
            case NONE -> jms.createMessage();
        };
    }

    private static BytesMessage bytesMessage(byte[] body, JMSContext jms) throws JMSException {
        BytesMessage message = jms.createBytesMessage();
        if (body != null) {
            message.writeBytes(body);
        }
        return message;
    }

    private static MapMessage mapMessage(byte[] body, JMSContext jms) throws JMSException {
        MapMessage message = jms.createMapMessage();
        for (Map.Entry<String, JsonValue> entry : parse(body).entrySet()) {
            message.setObject(entry.getKey(), TypedValues.value(entry.getValue().asJsonObject()));
        }
        return message;
    }

    private static StreamMessage streamMessage(byte[] body, JMSContext jms) throws JMSException {
        StreamMessage message = jms.createStreamMessage();
        try (var reader = Json.createReader(new StringReader(new String(body, StandardCharsets.UTF_8)))) {
            for (JsonValue value : reader.readArray()) {
                message.writeObject(TypedValues.value(value.asJsonObject()));
            }
        }
        return message;
    }

    /** A short text for lists: the text's start, the JSON of a map or stream, else the body's size. */
    private static String previewOf(BodyType type, byte[] body) {
        if (body == null) {
            return "";
        }
        String preview = switch (type) {
            case TEXT, MAP, STREAM -> new String(body, StandardCharsets.UTF_8);
            default -> "(" + body.length + " bytes)";
        };
        if (preview.codePointCount(0, preview.length()) > PREVIEW_LENGTH) {
            preview = preview.substring(0, preview.offsetByCodePoints(0, PREVIEW_LENGTH - 1)) + "…";
        }
        return preview.replace('\0', '\uFFFD'); // PostgreSQL keeps no NUL in text; the body itself keeps it
    }

    static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonObject parse(byte[] json) {
        return parse(new String(json, StandardCharsets.UTF_8));
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
