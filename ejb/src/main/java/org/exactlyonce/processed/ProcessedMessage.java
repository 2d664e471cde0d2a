package org.exactlyonce.processed;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A message ID a consumer has processed. The primary key {@code (consumer, message_id)} is the single
 * authority on duplicates: a second insert of the same key fails in the database, whatever the
 * application believes.
 */
@Entity
@IdClass(ProcessedMessage.Key.class)
@Table(name = "EO_PROCESSED_MESSAGE")
public class ProcessedMessage {

    /** Longest consumer name the table holds. */
    public static final int MAX_CONSUMER_LENGTH = 100;

    /** Longest message ID the table holds; longer IDs are rejected before any insert. */
    public static final int MAX_MESSAGE_ID_LENGTH = 200;

    @Id
    @Column(name = "CONSUMER", length = MAX_CONSUMER_LENGTH)
    private String consumer;

    @Id
    @Column(name = "MESSAGE_ID", length = MAX_MESSAGE_ID_LENGTH)
    private String messageId;

    @Column(name = "PROCESSED_AT", nullable = false)
    private Instant processedAt;

    @Column(name = "JMS_MESSAGE_ID", length = 100)
    private String jmsMessageId;

    protected ProcessedMessage() {}

    public ProcessedMessage(String consumer, String messageId, String jmsMessageId, Instant processedAt) {
        this.consumer = consumer;
        this.messageId = messageId;
        this.jmsMessageId = jmsMessageId;
        this.processedAt = processedAt;
    }

    public String consumer() {
        return consumer;
    }

    public String messageId() {
        return messageId;
    }

    public Instant processedAt() {
        return processedAt;
    }

    /** The broker's ID of the delivery that was processed; a re-sent message gets another one. */
    public String jmsMessageId() {
        return jmsMessageId;
    }

    /** The composite primary key. */
    public static class Key implements java.io.Serializable {
        private String consumer;
        private String messageId;

        protected Key() {}

        public Key(String consumer, String messageId) {
            this.consumer = consumer;
            this.messageId = messageId;
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
