package org.exactlyonce.internal.outbox;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * The relays' leases, one per destination, mapped so that the persistence provider creates the table
 * where the engine's tables are generated; {@link OutboxTable} reads and writes it.
 */
@Entity
@Table(name = "EO_OUTBOX_LEASE")
class OutboxLease {

    /** {@code queue:Name} or {@code topic:Name}. */
    @Id
    @Column(name = "DESTINATION", length = 211)
    private String destination;

    @Column(name = "HOLDER", length = 36, nullable = false)
    private String holder;

    @Column(name = "HELD_UNTIL", nullable = false)
    private LocalDateTime heldUntil;

    protected OutboxLease() {}
}
