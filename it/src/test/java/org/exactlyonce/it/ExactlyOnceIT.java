package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The protocol's outcomes, one delivery path at a time, on the running server with the sample EAR. */
class ExactlyOnceIT {

    private static final Duration PROCESSING = Duration.ofSeconds(60);
    private static final int MAX_DELIVERIES = Integer.getInteger("it.max-deliveries", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final ServerLog log = new ServerLog();
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void oneMessageHasOneEffect() {
        long processedBefore = ledger.deliveries("processed");

        ledger.sendCredit(newId(), account, 25);

        Await.untilEquals("the credit is booked", 25L, PROCESSING, () -> ledger.balance(account));
        Await.settle();
        assertEquals(1, credits());
        assertTrue(ledger.deliveries("processed") > processedBefore);
    }

    @Test
    void sameIdSentTwiceHasOneEffectAndCountsADuplicate() {
        long duplicatesBefore = ledger.duplicates();
        String id = newId();

        ledger.sendCredit(id, account, 10);
        Await.untilEquals("the first copy is booked", 10L, PROCESSING, () -> ledger.balance(account));
        ledger.sendCredit(id, account, 10);

        Await.until("the second copy is dropped", PROCESSING, () -> ledger.duplicates() > duplicatesBefore);
        Await.settle();
        assertEquals(10, ledger.balance(account));
        assertEquals(1, credits());
    }

    @Test
    void failureInProcessingRollsBackAndTheRedeliverySucceeds() {
        long failedBefore = ledger.deliveries("failed");
        int failures = MAX_DELIVERIES - 1;

        ledger.sendCredit(order(newId(), 7, faults(failures, null)));

        Await.untilEquals("the last delivery books the credit", 7L, PROCESSING, () -> ledger.balance(account));
        Await.settle();
        assertEquals(1, credits(), "the failed deliveries left nothing behind");
        assertTrue(ledger.deliveries("failed") - failedBefore >= failures);
    }

    /** Also: the duplicates, each refused by the primary key, write nothing to the server's log. */
    @Test
    void concurrentDeliveriesOfOneIdHaveOneEffect() {
        int ids = 40;
        int copies = 4;
        long duplicatesBefore = ledger.duplicates();
        long loggedBefore = log.linesMentioning("EO_PROCESSED_MESSAGE");

        JsonObject sent = ledger.sendBulk(Json.createObjectBuilder()
                .add("account", account)
                .add("count", ids)
                .add("amount", 3)
                .add("copies", copies)
                .build());

        assertEquals(ids * copies, sent.getInt("messagesSent"));
        Await.untilEquals(
                "every copy is processed or dropped",
                (long) ids * (copies - 1),
                PROCESSING,
                () -> ledger.duplicates() - duplicatesBefore);
        Await.settle();
        assertEquals(ids * 3L, ledger.balance(account));
        assertEquals(ids, credits());
        assertEquals(loggedBefore, log.linesMentioning("EO_PROCESSED_MESSAGE"), "no unique violation logged");
    }

    /**
     * IDs that a folding collation or a pad-space comparison would make one key, and the longest ID of
     * characters beyond the BMP: each is its own message, booked once.
     */
    @Test
    void idsThatDifferOnlyInCaseAccentsOrTrailingBlanksAreEachProcessed() {
        String base = newId();
        List<String> ids = List.of(
                base + "-Order",
                base + "-order",
                base + "-x",
                base + "-x ",
                base + "-x  ",
                base + "-x~",
                base + "-e",
                base + "-\u00e9",
                base + "-e\u0301",
                base + "-ss",
                base + "-\u00df",
                base + "-\u6ce8\u6587",
                base + "\uD83D\uDE00".repeat(200 - base.length()));

        ids.forEach(id -> ledger.sendCredit(id, account, 1));

        Await.untilEquals("every ID is booked", (long) ids.size(), PROCESSING, () -> ledger.balance(account));
        Await.settle();
        assertEquals(ids.size(), credits());
        assertEquals(ids.size(), ledger.effects(account).size(), "each ID booked on its own");
    }

    /**
     * Two consumers whose classes have one simple name, in two packages, on two queues, fed the same
     * business IDs: each books every one. Named after their class, one would drop the other's messages.
     */
    @Test
    void twoConsumersWhoseClassesShareANameEachProcessTheSameIds() {
        List<String> ids = List.of(newId(), newId(), newId());

        ids.forEach(id -> ledger.sendCreditAndAudit(id, account, 2));

        Await.untilEquals("the ledger books them", 6L, PROCESSING, () -> ledger.balance(account));
        Await.untilEquals("the audit books them too", 6L, PROCESSING, () -> ledger.balance("audit-" + account));
        Await.settle();
        assertEquals(3, credits());
        assertEquals(
                3, ledger.account("audit-" + account).getJsonNumber("credits").longValue());
    }

    @Test
    void readinessReportsTheProcessedIdTableWithItsPrimaryKey() {
        var readiness = ledger.readiness();

        assertEquals(200, readiness.statusCode(), readiness.body());
        JsonObject check =
                Json.createReader(new StringReader(readiness.body())).readObject().getJsonArray("checks").stream()
                        .map(JsonValue::asJsonObject)
                        .filter(each -> each.getString("name").equals("exactly-once-processed-ids"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no processed-ID check in " + readiness.body()));
        assertEquals("UP", check.getString("status"));
        assertEquals("CONSUMER,MESSAGE_ID", check.getJsonObject("data").getString("primaryKey"));
    }

    private long credits() {
        return ledger.account(account).getJsonNumber("credits").longValue();
    }

    private JsonObject order(String id, long amount, JsonObject faults) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", amount)
                .add("faults", faults)
                .build();
    }

    static JsonObject faults(int failDeliveries, String crashAt) {
        var faults = Json.createObjectBuilder().add("failDeliveries", failDeliveries);
        if (crashAt != null) {
            faults.add("crashAt", crashAt);
        }
        return faults.build();
    }

    static String newId() {
        return "it-" + UUID.randomUUID();
    }
}
