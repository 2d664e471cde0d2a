package org.exactlyonce.internal.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;

/** The payloads the engine keeps and fingerprints: those of text and bytes messages. */
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
}
