package org.exactlyonce.internal.telemetry;

/** What became of one delivery of a message to a consumer. */
public enum Outcome {
    /** Processed and committed: the message's one effect. */
    PROCESSED,
    /** Dropped: an earlier delivery of the same ID had committed. */
    DUPLICATE_ALREADY_COMMITTED,
    /** Dropped: a concurrent delivery of the same ID committed first. */
    DUPLICATE_LOST_RACE,
    /** Dropped as a duplicate, but its payload differs from the first one's: logged, for the producer to explain. */
    DUPLICATE_CONFLICT,
    /** Processing or commit failed: rolled back, the broker redelivers. */
    FAILED,
    /** Not processed, kept in the parked messages with the reason, and acknowledged. */
    PARKED;

    /** The name used in metrics and JSON. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
