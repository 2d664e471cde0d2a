package org.exactlyonce.internal.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The payloads of messages, as the engine reads them to keep and to fingerprint them. */
public final class MessageBodies {

    private MessageBodies() {}

    /** The text of a text message; {@code null} for any other type. */
    public static String textOf(Message message) throws JMSException {
        return message instanceof TextMessage text ? text.getText() : null;
    }

    /** The bytes of a bytes message, which is left ready to be read again; {@code null} for any other type. */
    public static byte[] bytesOf(Message message) throws JMSException {
        if (message instanceof BytesMessage bytes) {
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.reset();
            bytes.readBytes(body);
            bytes.reset();
            return body;
        }
        return null;
    }

    /**
     * The content of a map, stream, object or plain message in one canonical form, which two copies of
     * one message share whichever provider delivered them: the map's entries by name, the stream's
     * values in order, each with its type; the object serialized; a plain message's application
     * properties by name, as they are all it carries. {@code null} for a text or bytes message.
     */
    public static byte[] canonicalContentOf(Message message) throws JMSException {
        BodyType type = BodyType.of(message);
        return switch (type) {
            case TEXT, BYTES -> null;
            case MAP ->
                tagged(type, MessageCopies.mapOf((MapMessage) message, true).toString());
            case STREAM ->
                tagged(type, MessageCopies.streamOf((StreamMessage) message).toString());
            case OBJECT -> {
                byte[] serialized = MessageCopies.serialized(((ObjectMessage) message).getObject());
                byte[] tag = tagged(type, "");
                byte[] content = Arrays.copyOf(tag, tag.length + (serialized == null ? 0 : serialized.length));
                if (serialized != null) {
                    System.arraycopy(serialized, 0, content, tag.length, serialized.length);
                }
                yield content;
            }
            case NONE -> tagged(type, MessageCopies.propertiesOf(message, true));
        };
    }

    /** The type first: a map and a stream of the same values are two contents. */
    private static byte[] tagged(BodyType type, String content) {
        return (type.name() + ":" + content).getBytes(StandardCharsets.UTF_8);
    }
}
