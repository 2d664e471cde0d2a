package org.exactlyonce.internal.processed;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.exactlyonce.internal.message.MessageBodies;

/**
 * SHA-256 fingerprints of message payloads, to tell a true re-send from another message reusing an ID:
 * of every body type, a text's as its UTF-8 bytes and a bytes message's as they are (as they were
 * fingerprinted before the others were), the others' in a canonical form ({@link
 * MessageBodies#canonicalContentOf}).
 */
final class PayloadFingerprints {

    private static final MessageDigest SHA_256 = sha256Digest();

    private PayloadFingerprints() {}

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The payload's fingerprint in hex; {@code null} for a text message without text. */
    static String of(Message message) throws JMSException {
        String text = MessageBodies.textOf(message);
        byte[] payload = text != null ? text.getBytes(StandardCharsets.UTF_8) : MessageBodies.bytesOf(message);
        if (payload == null) {
            payload = MessageBodies.canonicalContentOf(message);
        }
        return payload == null ? null : sha256(payload);
    }

    private static String sha256(byte[] payload) {
        return HexFormat.of().formatHex(newDigest().digest(payload));
    }

    /** A copy of one digest made once: cheaper per message than a provider look-up (getInstance). */
    private static MessageDigest newDigest() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the runtime's SHA-256 cannot be copied", e);
        }
    }
}
