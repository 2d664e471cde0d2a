package org.exactlyonce.park;

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
import java.util.Collections;
import java.util.Map;
import org.exactlyonce.consume.MessageBodies;

/**
 * What of a JMS message is kept when it is parked, and the message rebuilt from that for a replay:
 * its type and whole body, the headers a producer sets (correlation ID, type, reply-to, priority,
 * delivery mode) and every application property with its Java type, the message group's included.
 * The broker's other {@code JMSX…} properties are the broker's to set again; provider-specific
 * {@code JMS_…} ones are kept for the operator but set by the provider on the replayed message.
 */
final class MessageCopies {

    /** Characters of a body shown where parked messages are listed. */
    static final int PREVIEW_LENGTH = 300;

    private static final String GROUP_ID = "JMSXGroupID";
    private static final String GROUP_SEQ = "JMSXGroupSeq";

    private MessageCopies() {}

    /**
     * A parked message's content.
     *
     * @param body the body as bytes: text in UTF-8, map and stream bodies as JSON of typed values, an
     *     object in Java serialization; {@code null} for a plain message or a null body
     * @param headers JSON of the headers a producer sets
     * @param properties JSON of the application properties, name to typed value
     */
    record Copy(BodyType bodyType, byte[] body, String preview, String headers, String properties) {}

    /**
     * @throws JMSException when the message cannot be read whole, such as an object whose class is not
     *     visible: then it cannot be kept, and the caller hands it back to the broker
     */
    static Copy of(Message message) throws JMSException {
        BodyType type = BodyType.of(message);
        byte[] body = bodyOf(type, message);
        return new Copy(type, body, previewOf(type, body), headersOf(message).toString(), propertiesOf(message));
    }

    /** The application properties as {@code {"name": {"type": "String", "value": "…"}}}. */
    static String propertiesOf(Message message) throws JMSException {
        JsonObjectBuilder properties = Json.createObjectBuilder();
        for (Object each : Collections.list(message.getPropertyNames())) {
            String name = (String) each;
            Object value = message.getObjectProperty(name);
            if (isApplications(name) && value != null) {
                properties.add(name, TypedValues.typed(value));
            }
        }
        return properties.build().toString();
    }

    /** The parked message as a new message, ready to send back to its queue with {@link #producerFor}. */
    static Message rebuild(ParkedMessage parked, JMSContext jms) throws JMSException {
        Message message = withBody(parked.bodyType(), parked.body(), jms);
        JsonObject headers = parse(parked.headers());
        message.setJMSCorrelationID(headers.getString("correlationId", null));
        message.setJMSType(headers.getString("type", null));
        if (headers.get("replyTo") instanceof JsonObject replyTo) {
            message.setJMSReplyTo(destination(replyTo, jms));
        }
        for (Map.Entry<String, JsonValue> property : parse(parked.properties()).entrySet()) {
            if (!isProviders(property.getKey())) {
                message.setObjectProperty(
                        property.getKey(), TypedValues.value(property.getValue().asJsonObject()));
            }
        }
        return message;
    }

    /** A producer that sends with the parked message's priority and delivery mode, which a send sets. */
    static JMSProducer producerFor(ParkedMessage parked, JMSContext jms) {
        JsonObject headers = parse(parked.headers());
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

    private static byte[] bodyOf(BodyType type, Message message) throws JMSException {
        return switch (type) {
            case TEXT -> utf8(((TextMessage) message).getText());
            case BYTES -> MessageBodies.bytesOf(message);
            case MAP -> utf8(mapOf((MapMessage) message).toString());
            case STREAM -> utf8(streamOf((StreamMessage) message).toString());
            case OBJECT -> serialized(((ObjectMessage) message).getObject());
            case NONE -> null;
        };
    }

    private static JsonObject mapOf(MapMessage message) throws JMSException {
        JsonObjectBuilder map = Json.createObjectBuilder();
        for (Object name : Collections.list(message.getMapNames())) {
            map.add((String) name, TypedValues.typed(message.getObject((String) name)));
        }
        return map.build();
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

    private static byte[] utf8(String text) {
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
