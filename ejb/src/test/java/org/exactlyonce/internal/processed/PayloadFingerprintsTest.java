package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import org.exactlyonce.internal.processed.ProcessedMessages.Duplicate;
import org.exactlyonce.testing.InJvmBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A message that reuses an ID is told from a re-send by its payload's fingerprint, whatever its body
 * type; the messages go through a real JMS provider (an Artemis broker in this JVM), as delivered ones.
 */
class PayloadFingerprintsTest {

    @RegisterExtension
    static final InJvmBroker BROKER = new InJvmBroker();

    private static final Instant EARLIER = Instant.parse("2026-12-07T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    private JMSContext jms;
    private Queue queue;

    @BeforeEach
    void connect() {
        jms = BROKER.connections().createContext();
        queue = jms.createQueue("fingerprints-" + System.nanoTime());
    }

    @AfterEach
    void close() {
        jms.close();
    }

    @Test
    void everyBodyTypeHasAFingerprintThatTellsTwoPayloadsApart() throws JMSException {
        StreamMessage stream = jms.createStreamMessage();
        stream.writeLong(10);
        StreamMessage otherStream = jms.createStreamMessage();
        otherStream.writeString("10");
        Message plain = jms.createMessage();
        plain.setStringProperty("account", "a-1");
        Message otherPlain = jms.createMessage();
        otherPlain.setStringProperty("account", "a-2");

        List<String> fingerprints = new ArrayList<>();
        for (Message message : List.of(
                jms.createTextMessage("credit 10"),
                jms.createTextMessage("credit 11"),
                bytes(new byte[] {1}),
                bytes(new byte[] {2}),
                credit(10),
                credit(11),
                stream,
                otherStream,
                jms.createObjectMessage(10L),
                jms.createObjectMessage(11L),
                plain,
                otherPlain)) {
            fingerprints.add(PayloadFingerprints.of(delivered(message)));
        }

        assertEquals(fingerprints.size(), new HashSet<>(fingerprints).size(), "each its own: " + fingerprints);
    }

    @Test
    void aMapsFingerprintDoesNotDependOnTheOrderItsEntriesWereSet() throws JMSException {
        MapMessage one = jms.createMapMessage();
        one.setString("account", "a-1");
        one.setLong("amount", 10);
        MapMessage other = jms.createMapMessage();
        other.setLong("amount", 10);
        other.setString("account", "a-1");

        assertEquals(PayloadFingerprints.of(delivered(one)), PayloadFingerprints.of(delivered(other)));
    }

    /** Else every text message recorded before an upgrade would look reused after it. */
    @Test
    void aTextsFingerprintIsTheOneRecordedBefore() throws Exception {
        byte[] utf8 = "credit 10".getBytes(StandardCharsets.UTF_8);

        assertEquals(
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf8)),
                PayloadFingerprints.of(delivered(jms.createTextMessage("credit 10"))));
    }

    @Test
    void aMapThatReusesAnIdIsAConflictAndOneRecordedWithoutAFingerprintIsNot() throws JMSException {
        MapMessage first = credit(10);
        MapMessage reuse = credit(99);
        String recorded = PayloadFingerprints.of(delivered(first));

        assertEquals(Duplicate.CONFLICTING_PAYLOAD, IdRows.duplicate(recorded, EARLIER, delivered(reuse), NOW));
        assertEquals(Duplicate.ALREADY_COMMITTED, IdRows.duplicate(recorded, EARLIER, delivered(first), NOW));
        assertNotEquals(
                Duplicate.CONFLICTING_PAYLOAD,
                IdRows.duplicate(null, EARLIER, delivered(reuse), NOW),
                "recorded by a release that fingerprinted text and bytes only");
    }

    /** A map message of one entry, an amount. */
    private MapMessage credit(long amount) throws JMSException {
        MapMessage message = jms.createMapMessage();
        message.setLong("amount", amount);
        return message;
    }

    private BytesMessage bytes(byte[] body) throws JMSException {
        BytesMessage message = jms.createBytesMessage();
        message.writeBytes(body);
        return message;
    }

    /** The message as a consumer receives it. */
    private Message delivered(Message message) {
        jms.createProducer().send(queue, message);
        try (JMSConsumer consumer = jms.createConsumer(queue)) {
            return consumer.receive(5_000);
        }
    }
}
