package org.exactlyonce.internal.processed;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One consumer's rows in the processed-ID table, counted at one moment.
 *
 * @param unconfirmed IDs whose acknowledgement the purge has not confirmed yet
 * @param acknowledged IDs kept for the dedup window after their acknowledgement was confirmed
 * @param oldestUnconfirmed when the oldest unconfirmed ID was processed; {@code null} when there is none
 * @param countedAt when the rows were counted
 */
public record IdTableCounts(long unconfirmed, long acknowledged, Instant oldestUnconfirmed, Instant countedAt) {

    /** How long the oldest unconfirmed ID has waited for its confirmation; empty when there is none. */
    public Optional<Duration> oldestUnconfirmedAge(Instant now) {
        return Optional.ofNullable(oldestUnconfirmed).map(oldest -> Duration.between(oldest, now));
    }
}
