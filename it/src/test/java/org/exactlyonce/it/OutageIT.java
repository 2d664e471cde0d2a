package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The database goes away for a while under load (PostgreSQL stopped, as a crashed database host looks to
 * its clients) and comes back: the consumers pause and resume by themselves, and every message still
 * has exactly one effect, none parked, none dead-lettered.
 */
class OutageIT {

    private static final int MESSAGES = Integer.getInteger("outage.messages", 1000);
    private static final Duration OUTAGE = Duration.ofSeconds(20);
    /** Thirty of the test servers' purge intervals, and far less than the five minutes Open Liberty retries a failed timeout after. */
    private static final Duration PURGE_AGAIN = Duration.ofSeconds(60);

    private static final String PAUSED = "exactly-once: paused message endpoint";
    private static final String RESUMED = "exactly-once: resumed message endpoint";

    private final LedgerClient ledger = new LedgerClient();
    private final CrashSuite suite = new CrashSuite(TestServer.of(ledger));
    private final ServerLog log = new ServerLog();

    @Test
    void aDatabaseOutageLosesNothingDuplicatesNothingAndParksNothing() throws Exception {
        int parkedBefore = ledger.parked().size();
        int deadLettersBefore = ledger.deadLetterIds().size();
        long pausedBefore = log.linesMentioning(PAUSED);
        long resumedBefore = log.linesMentioning(RESUMED);

        CrashSuite.Result result = suite.runWithOutage(MESSAGES, new PostgreSql(), OUTAGE);
        Instant back = Instant.now();

        System.out.println(result.summary());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        assertEquals(parkedBefore, ledger.parked().size(), "no good message parked");
        assertEquals(deadLettersBefore, ledger.deadLetterIds().size(), "no message dead-lettered");
        long paused = log.linesMentioning(PAUSED) - pausedBefore;
        assertTrue(paused >= 1, "the outage outlasts the consumers' hold: their endpoints pause");
        assertEquals(paused, log.linesMentioning(RESUMED) - resumedBefore, "every paused endpoint resumes");
        Await.until(
                "the purge, which failed while the database was down, runs again on its own schedule",
                PURGE_AGAIN,
                () -> ledger.lastPurge() != null
                        && Instant.parse(ledger.lastPurge().getString("startedAt"))
                                .isAfter(back));
    }
}
