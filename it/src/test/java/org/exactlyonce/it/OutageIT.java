package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The database goes away under load and comes back: stopped, as a crashed database host looks to its
 * clients; restarted fast, as an operator does; its sessions terminated in bursts; or hung ({@code kill
 * -STOP}), as a partitioned or frozen host looks, where only the data source's timeouts end the
 * consumers' waits. The consumers pause and resume by themselves where the outage outlasts their hold,
 * and every message still has exactly one effect, none parked, none dead-lettered.
 */
class OutageIT {

    private static final int MESSAGES = Integer.getInteger("outage.messages", 1000);
    private static final Duration STOPPED = Duration.ofSeconds(20);
    private static final Duration HUNG = Duration.ofSeconds(60);
    /** Thirty of the test servers' purge intervals, and far less than the five minutes Open Liberty retries a failed timeout after. */
    private static final Duration PURGE_AGAIN = Duration.ofSeconds(60);

    private static final String PAUSED = "exactly-once: paused message endpoint";
    private static final String RESUMED = "exactly-once: resumed message endpoint";

    private final LedgerClient ledger = new LedgerClient();
    private final CrashSuite suite = new CrashSuite(TestServer.of(ledger));
    private final ServerLog log = new ServerLog();
    private final DatabaseOutages database = DatabaseOutages.ofThisPhase();

    @Test
    void aDatabaseOutageLosesNothingDuplicatesNothingAndParksNothing() throws Exception {
        Outcome outcome = new Outcome();

        CrashSuite.Result result = suite.runWithOutage(MESSAGES, database.stopped(), STOPPED, () -> {});

        outcome.check(result);
        outcome.checkPausedAndResumed();
    }

    /** A restart an operator makes: too short to pause anything, and nothing may be counted against a message. */
    @Test
    void aFastRestartLosesNothingAndParksNothing() throws Exception {
        Outcome outcome = new Outcome();

        CrashSuite.Result result = suite.runWithOutage(MESSAGES, database.restartedFast(), Duration.ZERO, () -> {});

        outcome.check(result);
    }

    /** Sessions killed under the consumers, as {@code pg_terminate_backend} and a failover's proxy do. */
    @Test
    void terminatedSessionsLoseNothingAndParkNothing() throws Exception {
        Outcome outcome = new Outcome();

        CrashSuite.Result result =
                suite.runWithOutage(MESSAGES, database.sessionsTerminated(5), Duration.ZERO, () -> {});

        outcome.check(result);
    }

    /**
     * Without the shipped data sources' timeouts, every consumer thread would wait on its socket for as
     * long as the database hangs, its message locked, and no outage would ever be noticed.
     */
    @Test
    void aHungDatabaseTurnsReadinessDownAndLosesNothing() throws Exception {
        Outcome outcome = new Outcome();
        boolean[] notReady = new boolean[1];

        CrashSuite.Result result = suite.runWithOutage(MESSAGES, database.hung(), HUNG, () -> {
            try {
                Await.until(
                        "readiness is DOWN while the database hangs",
                        HUNG.minusSeconds(5),
                        () -> ledger.readiness().statusCode() == 503);
                notReady[0] = true;
            } catch (AssertionError stillReady) {
                System.out.println(stillReady.getMessage());
            }
        });

        outcome.check(result);
        outcome.checkPausedAndResumed();
        assertTrue(notReady[0], "readiness went DOWN while the database hung");
    }

    /** What a run must leave: exact effects, nothing parked or dead-lettered, the purge running again. */
    private final class Outcome {
        private final int parkedBefore = ledger.parked().size();
        private final int deadLettersBefore = ledger.deadLetterIds().size();
        private final long pausedBefore = log.linesMentioning(PAUSED);
        private final long resumedBefore = log.linesMentioning(RESUMED);

        void check(CrashSuite.Result result) {
            Instant back = Instant.now();
            System.out.println(result.summary());
            assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
            assertEquals(parkedBefore, ledger.parked().size(), "no good message parked");
            assertEquals(deadLettersBefore, ledger.deadLetterIds().size(), "no message dead-lettered");
            Await.until(
                    "the purge, which failed while the database was down, runs again on its own schedule",
                    PURGE_AGAIN,
                    () -> ledger.lastPurge() != null
                            && Instant.parse(ledger.lastPurge().getString("startedAt"))
                                    .isAfter(back));
        }

        /** For an outage longer than the consumers' hold. */
        void checkPausedAndResumed() {
            long paused = log.linesMentioning(PAUSED) - pausedBefore;
            assertTrue(paused >= 1, "the outage outlasts the consumers' hold: their endpoints pause");
            assertEquals(paused, log.linesMentioning(RESUMED) - resumedBefore, "every paused endpoint resumes");
        }
    }
}
