package org.exactlyonce.park;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Collections;
import java.util.Map;

/**
 * What of a JMS message is kept when it is parked, and the message rebuilt from that for a replay:
 * the body of a text or bytes message and every application property with its type. The broker's
 * {@code JMSX…} properties are the broker's to set again.
 */
final class MessageCopies {

    private MessageCopies() {}

    /** The application properties as {@code {"name": {"type": "String", "value": "…"}}}. */
    static String propertiesOf(Message message) throws JMSException {
        JsonObjectBuilder properties = Json.createObjectBuilder();
        for (Object each : Collections.list(message.getPropertyNames())) {
            String name = (String) each;
            Object value = message.getObjectProperty(name);
            if (!name.startsWith("JMSX") && value != null) {
                properties.add(
                        name,
                        Json.createObjectBuilder()
                                .add("type", value.getClass().getSimpleName())
                                .add("value", value.toString()));
            }
        }
        return properties.build().toString();
    }

    /** The parked message as a new message, ready to send back to its queue. */
    static Message rebuild(ParkedMessage parked, JMSContext jms) throws JMSException {
        Message message;
        if (parked.bytesBody() != null) {
            BytesMessage bytes = jms.createBytesMessage();
            bytes.writeBytes(parked.bytesBody());
            message = bytes;
        } else {
            message = jms.createTextMessage(parked.textBody());
        }
        for (Map.Entry<String, JsonValue> property : parse(parked.properties()).entrySet()) {
            JsonObject typed = property.getValue().asJsonObject();
            message.setObjectProperty(property.getKey(), typed(typed.getString("type"), typed.getString("value")));
        }
        return message;
    }

    private static Object typed(String type, String value) {
        return switch (type) {
            case "Boolean" -> Boolean.valueOf(value);
            case "Byte" -> Byte.valueOf(value);
            case "Short" -> Short.valueOf(value);
            case "Integer" -> Integer.valueOf(value);
            case "Long" -> Long.valueOf(value);
            case "Float" -> Float.valueOf(value);
            case "Double" -> Double.valueOf(value);
            default -> value;
        };
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
