package org.exactlyonce.internal.outage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutageStateTest {

    private static final Instant START = Instant.parse("2026-12-05T10:00:00Z");

    private Instant now = START;
    private final OutageState state = new OutageState(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void onlyTheFirstReportOfAnOutageStartsTheProbing() {
        assertFalse(state.isDown());
        assertTrue(state.down(), "the first report");

        now = now.plusSeconds(3);
        assertFalse(state.down(), "a second consumer's report while it is down");
        assertEquals(Optional.of(START), state.downSince(), "down since the first report");
    }

    @Test
    void theRecoveryMeasuresTheOutageFromTheFirstReport() {
        state.down();
        now = now.plusMillis(20_500);

        assertEquals(Duration.ofMillis(20_500), state.back().outage());
        assertFalse(state.isDown());
        assertEquals(Optional.empty(), state.downSince());
    }

    @Test
    void anEndpointIsPausedOnceWhileTheDatabaseIsDownAndResumedWhenItIsBack() {
        assertFalse(state.claimForPause("ledger"), "the database is up: nothing to pause");
        state.down();

        assertTrue(state.claimForPause("ledger"));
        assertFalse(state.claimForPause("ledger"), "a second consumer instance while the pause runs");
        assertFalse(state.pauseEnded("ledger", true), "still down: it stays paused");
        assertFalse(state.claimForPause("ledger"), "paused already");

        assertEquals(Set.of("ledger"), state.back().toResume());
        assertEquals(Set.of(), state.back().toResume(), "resumed once");
    }

    @Test
    void anEndpointPausedAfterTheDatabaseCameBackIsResumedAtOnce() {
        state.down();
        assertTrue(state.claimForPause("ledger"));
        assertEquals(Set.of(), state.back().toResume(), "the pause had not ended yet");

        assertTrue(state.pauseEnded("ledger", true), "back meanwhile: resume it at once");
    }

    @Test
    void anEndpointThatCouldNotBePausedMayBeClaimedAgain() {
        state.down();
        assertTrue(state.claimForPause("ledger"));

        assertFalse(state.pauseEnded("ledger", false));
        assertTrue(state.claimForPause("ledger"), "the next hand-back tries again");
    }

    @Test
    void aDeliveryWaitsForTheDatabaseAtMostAsLongAsItHolds() throws Exception {
        assertTrue(state.awaitBack(Duration.ZERO), "up: no wait");
        state.down();
        assertFalse(state.awaitBack(Duration.ofMillis(50)), "still down after the hold");

        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return state.awaitBack(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        assertFalse(waiting.isDone(), "it waits while the database is down");
        state.back();
        assertTrue(waiting.get(10, TimeUnit.SECONDS), "released when the database is back");
    }
}
