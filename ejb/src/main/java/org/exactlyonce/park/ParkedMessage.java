package org.exactlyonce.park;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A message a consumer could not process, kept whole — payload, properties, the reason, the attempts —
 * for an operator to replay or discard. Unique per consumer and broker message, so a redelivery of a
 * message already parked (a crash before its acknowledgement) is not parked twice.
 */
@Entity
@Table(
        name = "EO_PARKED_MESSAGE",
        uniqueConstraints =
                @UniqueConstraint(
                        name = "EO_PARKED_MESSAGE_DELIVERY",
                        columnNames = {"CONSUMER", "JMS_MESSAGE_ID"}),
        indexes = @Index(name = "EO_PARKED_MESSAGE_PARKED", columnList = "CONSUMER, PARKED_AT"))
public class ParkedMessage {

    /** Longest explanation kept; a longer one is cut. */
    static final int MAX_DETAIL_LENGTH = 2000;

    private static final int DERBY_MAX_VARCHAR = 32_672;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "ID")
    private Long id;

    @Column(name = "CONSUMER", length = 100, nullable = false)
    private String consumer;

    /** The application's message ID, when the message has a usable one. */
    @Column(name = "MESSAGE_ID", length = 200)
    private String messageId;

    @Column(name = "JMS_MESSAGE_ID", length = 100, nullable = false)
    private String jmsMessageId;

    /** The queue to replay it to. */
    @Column(name = "QUEUE_NAME", length = 200)
    private String queueName;

    @Enumerated(EnumType.STRING)
    @Column(name = "REASON", length = 30, nullable = false)
    private ParkReason reason;

    @Column(name = "DETAIL", length = MAX_DETAIL_LENGTH, nullable = false)
    private String detail;

    // No @Lob on the bodies and the properties: Hibernate reads a LOB on PostgreSQL as a large object
    // (oid), not from the TEXT and BYTEA columns of src/ddl. The length is only for the tables EclipseLink
    // generates on the embedded Derby: its largest VARCHAR (32 KB); Derby makes byte[] a BLOB by itself.
    @Column(name = "TEXT_BODY", length = DERBY_MAX_VARCHAR)
    private String textBody;

    @Column(name = "BYTES_BODY")
    private byte[] bytesBody;

    /** The message's properties, as a JSON object of name to {type, value}. */
    @Column(name = "PROPERTIES", length = DERBY_MAX_VARCHAR, nullable = false)
    private String properties;

    /** Deliveries of the message, this one included. */
    @Column(name = "ATTEMPTS", nullable = false)
    private int attempts;

    /** In UTC, like every time the engine stores. */
    @Column(name = "SENT_AT")
    private LocalDateTime sentAt;

    @Column(name = "PARKED_AT", nullable = false)
    private LocalDateTime parkedAt;

    protected ParkedMessage() {}

    ParkedMessage(
            String consumer,
            String messageId,
            String jmsMessageId,
            String queueName,
            ParkReason reason,
            String detail) {
        this.consumer = consumer;
        this.messageId = messageId;
        this.jmsMessageId = jmsMessageId;
        this.queueName = queueName;
        this.reason = reason;
        this.detail = detail.length() > MAX_DETAIL_LENGTH ? detail.substring(0, MAX_DETAIL_LENGTH) : detail;
    }

    void keep(String textBody, byte[] bytesBody, String properties, int attempts, Instant sentAt, Instant parkedAt) {
        this.textBody = textBody;
        this.bytesBody = bytesBody;
        this.properties = properties;
        this.attempts = attempts;
        this.sentAt = sentAt == null ? null : LocalDateTime.ofInstant(sentAt, ZoneOffset.UTC);
        this.parkedAt = LocalDateTime.ofInstant(parkedAt, ZoneOffset.UTC);
    }

    public Long id() {
        return id;
    }

    public String consumer() {
        return consumer;
    }

    public String messageId() {
        return messageId;
    }

    public String jmsMessageId() {
        return jmsMessageId;
    }

    public String queueName() {
        return queueName;
    }

    public ParkReason reason() {
        return reason;
    }

    public String detail() {
        return detail;
    }

    /** The text of a text message; {@code null} for other types. */
    public String textBody() {
        return textBody;
    }

    /** The bytes of a bytes message; {@code null} for other types. */
    public byte[] bytesBody() {
        return bytesBody;
    }

    public String properties() {
        return properties;
    }

    public int attempts() {
        return attempts;
    }

    public Instant sentAt() {
        return sentAt == null ? null : sentAt.toInstant(ZoneOffset.UTC);
    }

    public Instant parkedAt() {
        return parkedAt.toInstant(ZoneOffset.UTC);
    }
}
