package org.exactlyonce.internal.outbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutboxRelayTest {

    @Test
    void theDefaultsAreUsable() {
        assertEquals(
                List.of(),
                relay(Duration.ofSeconds(5), 100, Duration.ofSeconds(30), Optional.empty())
                        .problems());
    }

    @Test
    void eachUnusableSettingIsNamed() {
        List<String> problems = relay(Duration.ZERO, 0, Duration.ofMillis(500), Optional.of(" "))
                .problems();

        assertEquals(4, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("exactlyonce.outbox.relay-interval"), problems.get(0));
        assertTrue(problems.get(1).contains("exactlyonce.outbox.batch-size"), problems.get(1));
        assertTrue(problems.get(2).contains("exactlyonce.outbox.relay-name"), problems.get(2));
        assertTrue(problems.get(3).contains("exactlyonce.outbox.lease"), problems.get(3));
    }

    /** A timer counts whole milliseconds: half of one would relay back to back. */
    @Test
    void aRelayIntervalUnderAMillisecondIsRefused() {
        List<String> problems = relay(Duration.ofNanos(500_000), 100, Duration.ofSeconds(30), Optional.empty())
                .problems();

        assertEquals(List.of("exactlyonce.outbox.relay-interval must be at least 1 ms, is PT0.0005S"), problems);
    }

    private static OutboxRelay relay(Duration interval, int batchSize, Duration lease, Optional<String> name) {
        OutboxRelay relay = new OutboxRelay();
        relay.relayInterval = interval;
        relay.batchSize = batchSize;
        relay.lease = lease;
        relay.relayName = name;
        return relay;
    }
}
