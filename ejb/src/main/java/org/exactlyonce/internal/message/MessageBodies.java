package org.exactlyonce.internal.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.io.ByteArrayOutputStream;

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
        if (type == BodyType.TEXT || type == BodyType.BYTES) {
            return null;
        }
        byte[] content = switch (type) {
            case MAP ->
                MessageCopies.utf8(
                        MessageCopies.mapOf((MapMessage) message, true).toString());
            case NONE -> MessageCopies.utf8(MessageCopies.propertiesOf(message, true));
            default -> MessageCopies.bodyOf(type, message); // a stream's and an object's have one order
        };
        return tagged(type, content);
    }

    /** The type first: a map and a stream of the same values are two contents. */
    private static byte[] tagged(BodyType type, byte[] content) {
        ByteArrayOutputStream tagged = new ByteArrayOutputStream();
        tagged.writeBytes(MessageCopies.utf8(type.name() + ":"));
        if (content != null) {
            tagged.writeBytes(content);
        }
        return tagged.toByteArray();
    }
}
