package org.exactlyonce.internal.outage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the database is down, since when, and which message endpoints are paused or being paused
 * meanwhile: the outage's transitions, apart from the container's timers and endpoints that act on
 * them. Thread-safe; the delivering threads wait on it for the database to come back. A plain object
 * that {@link DatabaseStatus} holds, never behind a CDI proxy: its methods synchronize and wait on it,
 * and a proxy that serialized its callers held every waiting delivery behind the first one (measured:
 * four held deliveries released one after another, 5 s each, in an outage of 20 s).
 */
final class OutageState {

    private final Clock clock;
    private final Set<String> pausing = new LinkedHashSet<>();
    private final Set<String> paused = new LinkedHashSet<>();
    /** Written under this object's lock, read without it: every delivery asks {@link #isDown} first. */
    private volatile Instant downSince;

    OutageState(Clock clock) {
        this.clock = clock;
    }

    boolean isDown() {
        return downSince != null;
    }

    synchronized Optional<Instant> downSince() {
        return Optional.ofNullable(downSince);
    }

    /**
     * Records that a probe found the database down.
     *
     * @return whether it was up until now, so that the caller starts probing
     */
    synchronized boolean down() {
        if (downSince != null) {
            return false;
        }
        downSince = clock.instant();
        return true;
    }

    /**
     * Waits until the database is back, at most as long as given.
     *
     * @return whether it is back
     */
    synchronized boolean awaitBack(Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (downSince != null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /**
     * Claims an endpoint for pausing, because its consumer handed a message back.
     *
     * @return whether the caller is to pause it: the database is still down, and the endpoint is neither
     *     paused nor being paused
     */
    synchronized boolean claimForPause(String endpoint) {
        return downSince != null && !paused.contains(endpoint) && pausing.add(endpoint);
    }

    /**
     * Records how the pause of a claimed endpoint ended.
     *
     * @return whether the caller is to resume it at once: it paused, and the database came back meanwhile
     */
    synchronized boolean pauseEnded(String endpoint, boolean paused) {
        pausing.remove(endpoint);
        if (!paused) {
            return false;
        }
        if (downSince == null) {
            return true;
        }
        this.paused.add(endpoint);
        return false;
    }

    /**
     * Records that a probe found the database back, and releases the waiting deliveries.
     *
     * @return how long it was down, and the endpoints to resume
     */
    synchronized Recovery back() {
        if (downSince == null) {
            return new Recovery(Duration.ZERO, Set.of());
        }
        Recovery recovery = new Recovery(Duration.between(downSince, clock.instant()), Set.copyOf(paused));
        paused.clear();
        downSince = null;
        notifyAll();
        return recovery;
    }

    /** The end of an outage: how long it lasted, and the endpoints paused during it. */
    record Recovery(Duration outage, Set<String> toResume) {}
}
