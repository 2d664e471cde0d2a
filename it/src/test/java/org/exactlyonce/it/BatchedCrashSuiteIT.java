package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The crash suite through the batched receiver: credits processed many per transaction, the server
 * halted before a batch's commit and after it, every credit booked once. The build crashes it at those
 * two points, which are the batch's own ({@code -Dcrash-suite.batched-messages}, 200, and {@code
 * -Dcrash-suite.batched-crashes}, 2); more crashes go on through the purge's points and kills, as in
 * {@code -Dcrash-suite.batched-messages=5000 -Dcrash-suite.batched-crashes=30}.
 */
class BatchedCrashSuiteIT {

    private final CrashSuite suite = new CrashSuite(TestServer.of(new LedgerClient()));

    @Test
    void everyMessageOfEveryBatchHasExactlyOneEffectAfterCrashesAtEveryPoint() throws Exception {
        List<String> points = suite.crashPoints(CrashSuite.Route.BATCHED);
        int crashes = Integer.getInteger("crash-suite.batched-crashes", 2);
        CrashSuite.Result result = suite.run(
                Integer.getInteger("crash-suite.batched-messages", 200), crashes, points, CrashSuite.Route.BATCHED);

        System.out.println(result.summary());
        System.out.println(result.name() + ": crashed at " + result.crashes());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        assertEquals(crashes, result.crashes().size());
    }
}
