package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The crash suite (see {@link CrashSuite}): a short run in every build, a long one on demand with
 * {@code -Dcrash-suite.messages=20000 -Dcrash-suite.crashes=100}. On the servers of the embedded
 * brokers it goes through the outbox's chain ({@code -Dcrash-suite.route=with-receipts}): credits,
 * their receipts sent through the outbox, the receipts booked by a second consumer.
 */
class CrashSuiteIT {

    private final LedgerClient ledger = new LedgerClient();
    private final CrashSuite suite = new CrashSuite(TestServer.of(ledger));

    @Test
    void everyMessageHasExactlyOneEffectAfterCrashesAtEveryPoint() throws Exception {
        CrashSuite.Result result = suite.runAtEveryPoint();

        System.out.println(result.summary());
        System.out.println(result.name() + ": crashed at " + result.crashes());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        assertEquals(suite.crashes(), result.crashes().size());
        assertEquals(List.of(), result.unreached(), "armed points no delivery or purge reached: " + result.details());
    }

    /** Proof that the suite can fail: the consumer without a processed-ID table duplicates. */
    @Test
    @Tag("suite-proof")
    void baselineWithoutProcessedIdsDuplicatesAfterCrashes() throws Exception {
        CrashSuite.Result result = suite.run(200, 2, List.of("AFTER_COMMIT"), CrashSuite.Route.AT_LEAST_ONCE);

        System.out.println("crash-suite baseline (at-least-once consumer, no processed-ID table):");
        System.out.println(result.summary());
        assertTrue(result.lost().isEmpty(), result.details());
        assertTrue(result.duplicated().size() > 0, "the baseline must show duplicates: " + result.details());
    }
}
