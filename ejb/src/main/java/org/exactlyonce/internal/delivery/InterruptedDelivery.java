package org.exactlyonce.internal.delivery;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.LocalDateTime;
import org.exactlyonce.internal.processed.ProcessedMessage;
import org.exactlyonce.internal.processed.StoredIds;

/**
 * A message whose deliveries crashes of the server or failures of its processing interrupted, mapped
 * so that the persistence provider creates the table where the engine's tables are generated; {@link
 * InterruptedRows} reads and writes it, and the purge forgets rows older than the dedup window.
 */
@Entity
@IdClass(ProcessedMessage.Key.class)
@Table(name = "EO_INTERRUPTED_DELIVERY")
class InterruptedDelivery {

    @Id
    @Column(name = "CONSUMER", length = ProcessedMessage.MAX_CONSUMER_LENGTH)
    private String consumer;

    @Id
    @Column(name = "MESSAGE_ID", length = StoredIds.MAX_STORED_LENGTH)
    private String messageId;

    @Column(name = "CRASHES", nullable = false)
    private int crashes;

    @Column(name = "FAILURES", nullable = false)
    private int failures;

    @Column(name = "LAST_INTERRUPTED_AT", nullable = false)
    private LocalDateTime lastInterruptedAt;

    protected InterruptedDelivery() {}
}
