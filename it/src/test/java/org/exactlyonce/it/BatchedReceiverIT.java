package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The harness's batched receiver ({@code BatchedLedger}) in the server. The crash suite through it:
 * credits processed many per transaction, the server halted before a batch's commit and after it, every
 * credit booked once. The build crashes it at those two points, which are the batch's own ({@code
 * -Dcrash-suite.batched-messages}, 200, and {@code -Dcrash-suite.batched-crashes}, 2); more crashes go on
 * through the purge's points and kills, as in {@code -Dcrash-suite.batched-messages=5000
 * -Dcrash-suite.batched-crashes=30}.
 */
class BatchedReceiverIT {

    private static final String CONSUMER = "exactly-once-sample/ledger/BatchedLedger";
    private static final int MAX_DELIVERIES = Integer.getInteger("it.max-deliveries", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final CrashSuite suite = new CrashSuite(TestServer.of(ledger));

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
        assertEquals(List.of(), result.unreached(), "armed points no delivery or purge reached: " + result.details());
    }

    @Test
    void aCreditThatKeepsFailingIsParkedAndTheRestOfItsBatchBookedOnce() {
        String account = "batched-" + UUID.randomUUID();
        ledger.runBatchedReceivers(0, 100); // the two orders wait on the queue, to be received as one batch
        try {
            ledger.sendBulk(order(account, 19, 0));
            ledger.sendBulk(order(account, 1, 1_000));
        } finally {
            ledger.runBatchedReceivers(1, 100);
        }

        Await.until(
                "the failing credit is parked",
                Duration.ofSeconds(60),
                () -> ledger.parked(CONSUMER).stream()
                        .anyMatch(parked -> parked.getString("messageId").startsWith(account)));
        Map<String, Long> effects = ledger.effects(account);
        assertEquals(19, effects.size(), "credits booked: " + effects);
        effects.forEach((id, times) -> assertEquals(1, times, id + " booked " + times + " times"));
        JsonObject parked = ledger.parked(CONSUMER).stream()
                .filter(message -> message.getString("messageId").startsWith(account))
                .findFirst()
                .orElseThrow();
        assertEquals("KEEPS_FAILING", parked.getString("reason"));
        assertEquals(MAX_DELIVERIES, parked.getInt("attempts"));
    }

    /** Credits to the batched receiver, each failing its first {@code failDeliveries} deliveries. */
    private static JsonObject order(String account, int count, int failDeliveries) {
        return Json.createObjectBuilder()
                .add("idPrefix", account + "-" + UUID.randomUUID() + "-")
                .add("account", account)
                .add("count", count)
                .add("amount", 1)
                .add("batched", true)
                .add("faults", Json.createObjectBuilder().add("failDeliveries", failDeliveries))
                .build();
    }
}
