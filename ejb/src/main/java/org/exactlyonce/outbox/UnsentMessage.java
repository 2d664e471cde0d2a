package org.exactlyonce.outbox;

import static org.exactlyonce.Internal.Reason.CONSOLE;

import java.time.Instant;
import org.exactlyonce.Internal;

/**
 * An outgoing message whose last send failed: kept, with the reason, and sent again.
 *
 * @param destination {@code queue <name>} or {@code topic <name>}
 * @param bodyPreview the start of its body, or its size
 * @param attempts sends that failed
 */
@Internal(CONSOLE)
public record UnsentMessage(
        String messageId,
        String destination,
        String bodyPreview,
        Instant writtenAt,
        int attempts,
        String lastFailure,
        Instant failedAt) {}
