package org.exactlyonce.processed;

import java.time.Instant;

/**
 * One consumer's rows in the processed-ID table, counted at one moment.
 *
 * @param unconfirmed IDs whose acknowledgement the purge has not confirmed yet
 * @param acknowledged IDs kept for the dedup window after their acknowledgement was confirmed
 * @param oldestUnconfirmed when the oldest unconfirmed ID was processed; {@code null} when there is none
 * @param countedAt when the rows were counted
 */
public record IdTableCounts(long unconfirmed, long acknowledged, Instant oldestUnconfirmed, Instant countedAt) {

    /** All rows, in either state. */
    public long total() {
        return unconfirmed + acknowledged;
    }
}
