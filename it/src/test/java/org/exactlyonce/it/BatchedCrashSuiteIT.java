package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The crash suite through the batched receiver: credits processed many per transaction, the server
 * halted before a batch's commit, after it, while the purge confirms and deletes its IDs, and killed;
 * every credit booked once.
 */
class BatchedCrashSuiteIT {

    private final CrashSuite suite = new CrashSuite(TestServer.of(new LedgerClient()));

    @Test
    void everyMessageOfEveryBatchHasExactlyOneEffectAfterCrashesAtEveryPoint() throws Exception {
        List<String> points = suite.crashPoints(CrashSuite.Route.BATCHED);
        CrashSuite.Result result = suite.run(
                Integer.getInteger("crash-suite.messages", 500), points.size(), points, CrashSuite.Route.BATCHED);

        System.out.println(result.summary());
        System.out.println(result.name() + ": crashed at " + result.crashes());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        assertEquals(points.size(), result.crashes().size());
    }
}
