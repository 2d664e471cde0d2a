package org.exactlyonce.processed;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.exactlyonce.message.MessageBodies;

/** SHA-256 fingerprints of message payloads, to tell a true re-send from another message reusing an ID. */
final class PayloadFingerprints {

    private PayloadFingerprints() {}

    /** The payload's fingerprint in hex; {@code null} for a message that is neither text nor bytes. */
    static String of(Message message) throws JMSException {
        String text = MessageBodies.textOf(message);
        byte[] payload = text != null ? text.getBytes(StandardCharsets.UTF_8) : MessageBodies.bytesOf(message);
        return payload == null ? null : sha256(payload);
    }

    private static String sha256(byte[] payload) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
