package org.exactlyonce.internal.processed;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * A message ID a consumer has processed. The primary key {@code (consumer, message_id)} is the single
 * authority on duplicates: a second insert of the same key fails in the database, whatever the
 * application believes.
 *
 * <p>An ID is {@link State#UNCONFIRMED} from its commit until the purge confirms, against the broker,
 * that its message can no longer be redelivered; then it is {@link State#ACKNOWLEDGED} and may be
 * deleted once the dedup window has passed.
 */
@Entity
@IdClass(ProcessedMessage.Key.class)
@Table(
        name = "EO_PROCESSED_MESSAGE",
        indexes = @Index(name = "EO_PROCESSED_MESSAGE_PURGE", columnList = "CONSUMER, ACKNOWLEDGED_AT, MESSAGE_ID"))
public class ProcessedMessage {

    /** Longest consumer name the table holds. */
    public static final int MAX_CONSUMER_LENGTH = 100;

    /** Longest broker name the table holds. */
    public static final int MAX_BROKER_LENGTH = 100;

    /** Longest message ID the table holds, in Unicode code points; longer IDs are rejected before any insert. */
    public static final int MAX_MESSAGE_ID_LENGTH = 200;

    @Id
    @Column(name = "CONSUMER", length = MAX_CONSUMER_LENGTH)
    private String consumer;

    /** In its {@link StoredIds stored form}; the length is Derby's, which counts UTF-16 units. */
    @Id
    @Column(name = "MESSAGE_ID", length = StoredIds.MAX_STORED_LENGTH)
    private String messageId;

    /** In UTC: Jakarta Persistence 3.1 maps no {@code Instant}, and a zone-less column must not depend on the server's zone. */
    @Column(name = "PROCESSED_AT", nullable = false)
    private LocalDateTime processedAt;

    @Column(name = "JMS_MESSAGE_ID", length = 100)
    private String jmsMessageId;

    /** SHA-256 of the payload, to tell a producer's true re-send from a different message reusing its ID. */
    @Column(name = "PAYLOAD_SHA256", length = 64)
    private String payloadSha256;

    /** The broker that delivered the message, as its broker view names it; {@code null} when unknown. */
    @Column(name = "BROKER", length = MAX_BROKER_LENGTH)
    private String broker;

    /** In UTC; {@code null} while unconfirmed. */
    @Column(name = "ACKNOWLEDGED_AT")
    private LocalDateTime acknowledgedAt;

    protected ProcessedMessage() {}

    public String consumer() {
        return consumer;
    }

    public String messageId() {
        return StoredIds.messageId(messageId);
    }

    public Instant processedAt() {
        return processedAt.toInstant(ZoneOffset.UTC);
    }

    /** The broker's ID of the delivery that was processed; a re-sent message gets another one. */
    public String jmsMessageId() {
        return jmsMessageId;
    }

    /** The broker that delivered the message; only a view of that broker can confirm it gone. */
    public Optional<String> broker() {
        return Optional.ofNullable(broker);
    }

    /** SHA-256 of the processed payload in hex; {@code null} for a message type without one. */
    public String payloadSha256() {
        return payloadSha256;
    }

    public State state() {
        return acknowledgedAt == null ? State.UNCONFIRMED : State.ACKNOWLEDGED;
    }

    /** When the purge confirmed that the message can no longer be redelivered. */
    public Optional<Instant> acknowledgedAt() {
        return Optional.ofNullable(acknowledgedAt).map(at -> at.toInstant(ZoneOffset.UTC));
    }

    /** Where a processed ID is in its life. */
    public enum State {
        /** Committed; its message may still be on the broker, so the ID must be kept. */
        UNCONFIRMED,
        /** Its message is confirmed gone from the broker; the ID only guards against producer re-sends. */
        ACKNOWLEDGED
    }

    /** The composite primary key. */
    public static class Key implements java.io.Serializable {
        private String consumer;
        private String messageId;

        protected Key() {}

        public Key(String consumer, String messageId) {
            this.consumer = consumer;
            this.messageId = StoredIds.stored(messageId);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && consumer.equals(key.consumer) && messageId.equals(key.messageId);
        }

        @Override
        public int hashCode() {
            return 31 * consumer.hashCode() + messageId.hashCode();
        }
    }
}
