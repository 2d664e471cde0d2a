package org.exactlyonce.internal.telemetry;

import java.util.Optional;

/**
 * The outbox's figures as the OpenTelemetry instruments record them. The outbox provides them: it
 * depends on the consumers, which report here, so this package names what it needs and not the outbox.
 */
public interface OutboxReadings {

    /** The figures now; empty when they cannot be read (the database does not answer), which the provider logs. */
    Optional<Reading> now();

    /**
     * @param backlog outgoing messages committed and not sent yet
     * @param oldestSeconds age of the oldest of them; 0 when none waits
     * @param failing those whose last send failed
     * @param sent messages this server sent since it started
     * @param sendFailures sends that failed since the server started
     */
    record Reading(long backlog, long oldestSeconds, long failing, long sent, long sendFailures) {}
}
