package org.exactlyonce.internal.outbox;

import java.time.Instant;

/**
 * An outgoing message whose last send failed: kept, with the reason, and sent again.
 *
 * @param destination {@code queue <name>} or {@code topic <name>}
 * @param bodyPreview the start of its body, or its size
 * @param attempts sends that failed
 */
public record UnsentMessage(
        String messageId,
        String destination,
        String bodyPreview,
        Instant writtenAt,
        int attempts,
        String lastFailure,
        Instant failedAt) {}
