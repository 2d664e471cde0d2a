package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The sample as users get it: its own EAR, without the test harness, on the embedded defaults the
 * README's run command starts (it-sample), tried as the README's "Try it" says.
 */
class SampleIT {

    private static final Duration BOOKED = Duration.ofSeconds(30);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "sample-" + UUID.randomUUID();

    /** As the README's run command starts it: no feature is missing, no resource unread, no schema unknown. */
    @Test
    void theDefaultServerLogsNoWarningOrError() {
        assertEquals(List.of(), new ServerLog().libertyWarningsAndErrors());
    }

    @Test
    void aCreditSentTwiceWithOneIdIsBookedOnce() {
        String id = UUID.randomUUID().toString();
        ledger.sendCredit(id, account, 10);
        ledger.sendCredit(id, account, 10);

        Await.untilEquals("the credit is booked", 10L, BOOKED, () -> ledger.balance(account));
        Await.settle();
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue());
    }

    @Test
    void aRetryingProducersHundredCreditsAreBookedOnceEach() {
        HttpResponse<String> sent = ledger.post(
                "/ledger/api/credits/bulk",
                Json.createObjectBuilder()
                        .add("account", account)
                        .add("count", 100)
                        .add("amount", 5)
                        .add("duplicateShare", 0.3)
                        .build());
        assertEquals(200, sent.statusCode(), sent.body());
        JsonObject result = LedgerClient.json(sent).asJsonObject();
        assertEquals(130, result.getInt("messagesSent"));

        Await.untilEquals("100 credits of 5 are booked", 500L, BOOKED, () -> ledger.balance(account));
        Await.settle();
        assertEquals(100, ledger.account(account).getJsonNumber("credits").longValue());
    }

    @Test
    void aCreditsReceiptGoesThroughTheOutboxAndIsBookedOnce() {
        String id = UUID.randomUUID().toString();
        JsonObject credit = Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", 3)
                .build();
        assertEquals(
                202, ledger.post("/ledger/api/credits?receipt=true", credit).statusCode());

        Await.untilEquals("the receipt is booked", 3L, BOOKED, () -> ledger.balance("receipts-" + account));
        assertEquals(3, ledger.balance(account));
    }

    @Test
    void theTestHarnessIsNotDeployed() {
        for (String path :
                new String[] {"/ledger/api/test-credits", "/ledger/api/faults/crash", "/ledger/api/dead-letters"}) {
            assertEquals(404, ledger.call("GET", path, "clerk", false).statusCode(), path);
        }
    }
}
