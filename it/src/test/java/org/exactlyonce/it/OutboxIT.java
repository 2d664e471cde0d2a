package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Consume, book, send: the sample's credits go to a consumer that books each and sends a receipt
 * through the outbox, and the receipts to a consumer that books them to {@code receipts-<account>}.
 * Every credit and every receipt is booked once, with duplicates on the way and when the server halts
 * (as by {@code kill -9}) after the relay's send; the outbox is empty at the end. {@link CrashSuiteIT}
 * halts the server at every point of the chain, on the servers of the embedded brokers.
 */
class OutboxIT {

    /** Covers a failed send's next try (5 s), many times over. */
    private static final Duration RECOVERY = Duration.ofMinutes(2);

    /**
     * How soon a restarted server sends again what its relay had sent when it halted: well within the
     * test servers' lease ({@code exactlyonce.outbox.lease=PT2M}), which a relay under a new name after
     * its restart would wait out, and within their dedup window (a minute), after which the copy would
     * be booked again.
     */
    private static final Duration RESENT_AFTER_RESTART = Duration.ofSeconds(30);

    /** The sample's consumer of the receipts, which a relay's second send of one reaches. */
    private static final String RECEIPTS = "org.exactlyonce.sample.ledger.ReceiptConsumer";

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void everyCreditAndItsReceiptAreBookedOnceThoughCreditsComeTwice() {
        JsonObject sent = ledger.sendBulk(Json.createObjectBuilder()
                .add("account", account)
                .add("count", 100)
                .add("amount", 3)
                .add("copies", 2)
                .add("duplicateShare", 0.2)
                .add("withReceipts", true)
                .build());

        awaitReceipts(sent.getJsonNumber("expectedBalance").longValue());
        Map<String, Long> once = IntStream.range(0, 100)
                .mapToObj(i -> sent.getString("idPrefix") + i)
                .collect(Collectors.toMap(id -> id, id -> 1L, (a, b) -> a, TreeMap::new));
        assertEquals(once, new TreeMap<>(ledger.effects(account)), "credits booked per message ID");
        assertEquals(once, new TreeMap<>(ledger.effects("receipts-" + account)), "receipts booked per credit");
        awaitNoReceiptWaits();
    }

    /**
     * The relay halts after the broker took the receipt and before the outbox forgot it: as soon as the
     * server is back its relay sends it again, with the same ID, and the receipts' consumer drops the copy.
     */
    @Test
    void crashAfterTheRelaySentBeforeItForgotSendsTheReceiptAgainUnderTheSameIdAtOnce() throws Exception {
        server.forgetEarlierHalts();
        ledger.armCrash("OUTBOX_SENT");
        ledger.sendCreditWithReceipt(credit(Json.createObjectBuilder()));
        server.awaitHaltAt("OUTBOX_SENT");
        server.restart();

        awaitNoReceiptWaits(RESENT_AFTER_RESTART);
        Await.until( // the copy sent before the halt, or the one sent again, whichever came second
                "the receipts' consumer drops a copy of the receipt",
                RESENT_AFTER_RESTART,
                () -> ledger.duplicates(RECEIPTS) >= 1);
        awaitReceipts(40);
        assertBookedOnce();
    }

    @Test
    void aMessageForAQueueThatIsGoneIsKeptWithTheReasonUntilAnAdminDiscardsIt() {
        String messageId = ledger.sendThroughOutbox("NoSuchQueue-" + UUID.randomUUID(), "a receipt for nobody");

        Await.until(
                "the send fails and the message is kept with the reason",
                RECOVERY,
                () -> failing(messageId)
                        .filter(unsent -> unsent.getInt("attempts") >= 1
                                && !unsent.getString("lastFailure").isBlank())
                        .isPresent());
        assertTrue(ledger.outbox().getJsonNumber("backlog").longValue() >= 1, "it waits in the outbox");

        assertEquals(
                403,
                ledger.call("DELETE", "/exactly-once/api/outbox/" + messageId, "viewer", true)
                        .statusCode());
        assertEquals(
                204,
                ledger.call("DELETE", "/exactly-once/api/outbox/" + messageId, "admin", true)
                        .statusCode());
        assertEquals(
                404,
                ledger.call("DELETE", "/exactly-once/api/outbox/" + messageId, "admin", true)
                        .statusCode());
        assertTrue(failing(messageId).isEmpty(), "discarded");
    }

    private Optional<JsonObject> failing(String messageId) {
        return ledger.outbox().getJsonArray("failingMessages").stream()
                .map(JsonValue::asJsonObject)
                .filter(unsent -> unsent.getString("messageId").equals(messageId))
                .findFirst();
    }

    private void awaitNoReceiptWaits() {
        awaitNoReceiptWaits(RECOVERY);
    }

    /** Nothing waits for the receipts' queue (another test's message for another queue may). */
    private void awaitNoReceiptWaits(Duration within) {
        Await.untilEquals("no receipt waits in the outbox", 0L, within, () -> {
            JsonNumber waiting =
                    ledger.outbox().getJsonObject("backlogByDestination").getJsonNumber("queue LedgerReceipts");
            return waiting == null ? 0L : waiting.longValue();
        });
    }

    private JsonObject credit(jakarta.json.JsonObjectBuilder order) {
        return order.add("messageId", newId())
                .add("account", account)
                .add("amount", 40)
                .build();
    }

    private void awaitReceipts(long balance) {
        Await.untilEquals("the receipts are booked", balance, RECOVERY, () -> ledger.balance("receipts-" + account));
        Await.settle();
    }

    private void assertBookedOnce() {
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue(), "credits booked");
        assertEquals(40, ledger.balance(account));
        assertEquals(
                1,
                ledger.account("receipts-" + account).getJsonNumber("credits").longValue(),
                "receipts booked");
        assertEquals(40, ledger.balance("receipts-" + account));
    }
}
