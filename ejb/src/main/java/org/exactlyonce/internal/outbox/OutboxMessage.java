package org.exactlyonce.internal.outbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.LocalDateTime;

/**
 * The outbox's message table, mapped so that the persistence provider creates it where the engine's
 * tables are generated (the embedded Derby); {@link OutboxTable} reads and writes it. {@code src/ddl}
 * has it for every database.
 */
@Entity
@Table(
        name = "EO_OUTBOX_MESSAGE",
        uniqueConstraints = @UniqueConstraint(name = "EO_OUTBOX_MESSAGE_ID", columnNames = "MESSAGE_ID"),
        indexes = @Index(name = "EO_OUTBOX_MESSAGE_NEXT", columnList = "DESTINATION_TYPE, DESTINATION, ID"))
class OutboxMessage {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "ID")
    private Long id;

    @Column(name = "MESSAGE_ID", length = 36, nullable = false)
    private String messageId;

    @Column(name = "DESTINATION_TYPE", length = 10, nullable = false)
    private String destinationType;

    @Column(name = "DESTINATION", length = 200, nullable = false)
    private String destination;

    @Column(name = "BODY_TYPE", length = 10, nullable = false)
    private String bodyType;

    // binary and no @Lob, as a parked message's: a BLOB of up to 2 GB on Derby
    @Column(name = "BODY", length = Integer.MAX_VALUE)
    private byte[] body;

    @Column(name = "BODY_PREVIEW", length = 301, nullable = false)
    private String bodyPreview;

    @Column(name = "HEADERS", length = Integer.MAX_VALUE, nullable = false)
    private byte[] headers;

    @Column(name = "PROPERTIES", length = Integer.MAX_VALUE, nullable = false)
    private byte[] properties;

    @Column(name = "WRITTEN_AT", nullable = false)
    private LocalDateTime writtenAt;

    /** Failed sends. */
    @Column(name = "ATTEMPTS", nullable = false)
    private int attempts;

    @Column(name = "LAST_FAILURE", length = OutboxTable.MAX_FAILURE_LENGTH)
    private String lastFailure;

    @Column(name = "FAILED_AT")
    private LocalDateTime failedAt;

    protected OutboxMessage() {}
}
