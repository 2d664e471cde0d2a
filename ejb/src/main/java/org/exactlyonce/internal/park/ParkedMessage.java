package org.exactlyonce.internal.park;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.logging.Logger;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.message.MessageCopies;
import org.exactlyonce.internal.message.MessageCopies.StoredMessage;
import org.exactlyonce.internal.processed.StoredIds;

/**
 * A message a consumer could not process, kept whole — type, body, headers, properties, the reason,
 * the attempts — for an operator to replay or discard. Unique per consumer and broker message, so a redelivery of a
 * message already parked (a crash before its acknowledgement) is not parked twice.
 */
@Entity
@Table(
        name = "EO_PARKED_MESSAGE",
        uniqueConstraints =
                @UniqueConstraint(
                        name = "EO_PARKED_MESSAGE_DELIVERY",
                        columnNames = {"CONSUMER", "JMS_MESSAGE_ID"}),
        indexes = {
            @Index(name = "EO_PARKED_MESSAGE_PARKED", columnList = "CONSUMER, PARKED_AT"),
            @Index(name = "EO_PARKED_MESSAGE_ID", columnList = "CONSUMER, MESSAGE_ID")
        })
public class ParkedMessage implements StoredMessage {

    private static final Logger LOG = Logger.getLogger(ParkedMessage.class.getName());

    /** Longest explanation kept; a longer one is cut. */
    static final int MAX_DETAIL_LENGTH = 2000;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "ID")
    private Long id;

    @Column(name = "CONSUMER", length = 100, nullable = false)
    private String consumer;

    /**
     * The application's message ID, when the message has a usable one, in its {@link StoredIds stored
     * form}: the purge keeps a processed ID while a parked message has it, and compares the two.
     */
    @Column(name = "MESSAGE_ID", length = StoredIds.MAX_STORED_LENGTH)
    private String messageId;

    /** {@code null} when the producer disabled message IDs ({@code setDisableMessageID}). */
    @Column(name = "JMS_MESSAGE_ID", length = 100)
    private String jmsMessageId;

    /** The queue to replay it to. */
    @Column(name = "QUEUE_NAME", length = 200)
    private String queueName;

    @Enumerated(EnumType.STRING)
    @Column(name = "REASON", length = 30, nullable = false)
    private ParkReason reason;

    @Column(name = "DETAIL", length = MAX_DETAIL_LENGTH, nullable = false)
    private String detail;

    @Enumerated(EnumType.STRING)
    @Column(name = "BODY_TYPE", length = 10, nullable = false)
    private BodyType bodyType;

    // Binary, with no @Lob, for every body and for the headers and properties: bytes keep any text
    // (PostgreSQL keeps no NUL in text, Derby no more than 32,672 characters in a VARCHAR), and
    // Hibernate reads a @Lob on PostgreSQL as a large object (oid), not from the BYTEA of src/ddl. The
    // length is only for the tables EclipseLink generates on the embedded Derby: a BLOB of up to 2 GB.
    @Column(name = "BODY", length = Integer.MAX_VALUE)
    private byte[] body;

    /** The start of the body, or its size, for lists that leave the body out. */
    @Column(name = "BODY_PREVIEW", length = MessageCopies.PREVIEW_LENGTH + 1, nullable = false)
    private String bodyPreview;

    /** JSON of the headers a producer sets, in UTF-8. */
    @Column(name = "HEADERS", length = Integer.MAX_VALUE, nullable = false)
    private byte[] headers;

    /** JSON of the application properties, name to {type, value}, in UTF-8. */
    @Column(name = "PROPERTIES", length = Integer.MAX_VALUE, nullable = false)
    private byte[] properties;

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
        this.messageId = messageId == null ? null : StoredIds.stored(messageId);
        this.jmsMessageId = jmsMessageId;
        this.queueName = queueName;
        this.reason = reason;
        String why = detail == null || detail.isBlank() ? reason + ", with no further detail" : detail;
        this.detail = why.length() > MAX_DETAIL_LENGTH ? why.substring(0, MAX_DETAIL_LENGTH) : why;
    }

    /** A parked message as lists show it: everything but the body, the headers and the properties. */
    ParkedMessage(Object[] listed) {
        this(
                (String) listed[1],
                StoredIds.messageId((String) listed[2]),
                (String) listed[3],
                (String) listed[4],
                (ParkReason) listed[5],
                (String) listed[6]);
        this.id = (Long) listed[0];
        this.bodyType = (BodyType) listed[7];
        this.bodyPreview = (String) listed[8];
        this.attempts = (Integer) listed[9];
        this.sentAt = (LocalDateTime) listed[10];
        this.parkedAt = (LocalDateTime) listed[11];
    }

    /** The fields of {@link #ParkedMessage(Object[])}, in order, for a query's select clause. */
    static final String LISTED_FIELDS = "p.id, p.consumer, p.messageId, p.jmsMessageId, p.queueName, p.reason,"
            + " p.detail, p.bodyType, p.bodyPreview, p.attempts, p.sentAt, p.parkedAt";

    /**
     * A message to park, kept whole.
     *
     * @param messageId the application's ID, or {@code null} when the message has no usable one
     * @param attempts the deliveries of the message, this one included
     */
    static ParkedMessage of(
            String consumer,
            String messageId,
            Message message,
            int attempts,
            ParkReason reason,
            String detail,
            Instant parkedAt)
            throws JMSException {
        Destination destination = message.getJMSDestination();
        String queue = destination instanceof Queue q ? q.getQueueName() : null;
        ParkedMessage parked = new ParkedMessage(consumer, messageId, message.getJMSMessageID(), queue, reason, detail);
        parked.keep(
                MessageCopies.of(message),
                attempts,
                message.getJMSTimestamp() == 0 ? null : Instant.ofEpochMilli(message.getJMSTimestamp()),
                parkedAt);
        return parked;
    }

    /** Says, once it is kept, which message was parked and why. */
    void log() {
        String which = messageId != null ? messageId() : "without a usable ID, broker ID " + jmsMessageId;
        LOG.warning(() -> consumer + " parked message " + which + " (" + reason + "): " + detail);
    }

    private void keep(MessageCopies.Copy copy, int attempts, Instant sentAt, Instant parkedAt) {
        this.bodyType = copy.bodyType();
        this.body = copy.body();
        this.bodyPreview = copy.preview();
        this.headers = copy.headers().getBytes(StandardCharsets.UTF_8);
        this.properties = copy.properties().getBytes(StandardCharsets.UTF_8);
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
        return StoredIds.messageId(messageId);
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

    public BodyType bodyType() {
        return bodyType;
    }

    /**
     * The body as {@link MessageCopies.Copy} keeps it; {@code null} for a plain message, a null body,
     * and a parked message read from a list.
     */
    public byte[] body() {
        return body == null ? null : body.clone();
    }

    public String bodyPreview() {
        return bodyPreview;
    }

    /** JSON of the headers a producer sets; {@code null} for a parked message read from a list. */
    public String headers() {
        return headers == null ? null : new String(headers, StandardCharsets.UTF_8);
    }

    /** JSON of the application properties; {@code null} for a parked message read from a list. */
    public String properties() {
        return properties == null ? null : new String(properties, StandardCharsets.UTF_8);
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
