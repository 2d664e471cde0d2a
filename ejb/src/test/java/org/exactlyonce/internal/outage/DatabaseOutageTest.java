package org.exactlyonce.internal.outage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseOutageTest {

    @Test
    void theDefaultProbeIntervalIsUsable() {
        assertEquals(List.of(), outageProbingEvery(Duration.ofSeconds(2)).problems());
    }

    /** A timer counts whole milliseconds: half of one, or none, would probe the database back to back. */
    @Test
    void aProbeIntervalUnderAMillisecondIsRefused() {
        assertEquals(
                List.of("exactlyonce.outage.probe-interval must be at least 1 ms, is PT0.0005S"),
                outageProbingEvery(Duration.ofNanos(500_000)).problems());
        assertEquals(
                List.of("exactlyonce.outage.probe-interval must be at least 1 ms, is PT0S"),
                outageProbingEvery(Duration.ZERO).problems());
    }

    private static DatabaseOutage outageProbingEvery(Duration interval) {
        DatabaseOutage outage = new DatabaseOutage();
        outage.probeInterval = interval;
        return outage;
    }
}
