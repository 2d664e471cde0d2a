package org.exactlyonce.internal.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The outbox at a glance, as the console and the metrics show it.
 *
 * @param backlog messages written and not sent yet
 * @param backlogByDestination the same, by destination ({@code queue <name>}, {@code topic <name>})
 * @param oldestWritten when the oldest of them was written; empty when none waits
 * @param failing messages whose last send failed, kept with the reason and sent again
 * @param sent messages this server's relay has sent since it started
 * @param sendFailures sends that failed on this server since it started
 */
public record OutboxFigures(
        long backlog,
        Map<String, Long> backlogByDestination,
        Optional<Instant> oldestWritten,
        long failing,
        long sent,
        long sendFailures) {

    /** How long the oldest message has waited, at {@code now}. */
    public Optional<Duration> oldestAge(Instant now) {
        return oldestWritten.map(written -> Duration.between(written, now));
    }
}
