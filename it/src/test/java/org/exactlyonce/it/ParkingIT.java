package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Bad input and poison messages are parked with their reason, acknowledged, and can be replayed. */
class ParkingIT {

    private static final Duration PARKING = Duration.ofSeconds(60);
    private static final int MAX_DELIVERIES = Integer.getInteger("it.max-deliveries", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void messageWithoutIdIsParkedWhole() {
        String body = order("no-id-" + UUID.randomUUID());

        ledger.sendRaw(null, "text", body);

        JsonObject parked = awaitParked(each -> body.equals(each.getString("textBody", null)));
        assertEquals("MISSING_ID", parked.getString("reason"));
        assertTrue(parked.getString("detail").contains("'messageId' is not set"), parked.toString());
        assertEquals(1, parked.getInt("attempts"), "parked on its first delivery");
        assertEquals("LedgerCredits", parked.getString("queue"));
    }

    @Test
    void messageWithEmptyIdIsParked() {
        String body = order("empty-id-" + UUID.randomUUID());

        ledger.sendRaw("", "text", body);

        assertEquals(
                "EMPTY_ID",
                awaitParked(each -> body.equals(each.getString("textBody", null)))
                        .getString("reason"));
    }

    @Test
    void idLongerThanTheTableHoldsIsParked() {
        String body = order("long-id-" + UUID.randomUUID());

        ledger.sendRaw("x".repeat(201), "text", body);

        JsonObject parked = awaitParked(each -> body.equals(each.getString("textBody", null)));
        assertEquals("ID_TOO_LONG", parked.getString("reason"));
        assertTrue(parked.getString("properties").contains("x".repeat(201)), "the ID is kept among the properties");
    }

    @Test
    void messageOfATypeTheConsumerRefusesIsParkedWithItsBytes() {
        String id = newId();

        ledger.sendRaw(id, "bytes", "some bytes");

        JsonObject parked = awaitParked(byId(id));
        assertEquals("TYPE_NOT_ACCEPTED", parked.getString("reason"));
        assertEquals("c29tZSBieXRlcw==", parked.getString("bytesBodyBase64"));
    }

    @Test
    void payloadTheConsumerRejectsIsParkedAtOnce() {
        String id = newId();

        ledger.sendRaw(id, "text", "this is no credit order");

        JsonObject parked = awaitParked(byId(id));
        assertEquals("INVALID_PAYLOAD", parked.getString("reason"));
        assertEquals(1, parked.getInt("attempts"), "not retried: it can never succeed");
    }

    @Test
    void poisonMessageIsParkedOnItsLastDeliveryNotLeftToLoop() {
        String id = newId();

        ledger.sendCredit(credit(id, Json.createObjectBuilder().add("failDeliveries", 1_000)));

        JsonObject parked = awaitParked(byId(id));
        assertEquals("KEEPS_FAILING", parked.getString("reason"));
        assertEquals(MAX_DELIVERIES, parked.getInt("attempts"));
        Await.settle();
        assertFalse(ledger.deadLetterIds().contains(id), "parked before the broker gave up on it");
        assertEquals(0, ledger.balance(account));
    }

    /**
     * The broker's own safety net, configured on each server, for a consumer that parks nothing: the
     * baseline consumer's poison message ends on the dead-letter queue after the last delivery.
     */
    @Test
    void poisonMessageOfAConsumerThatDoesNotParkEndsOnTheDeadLetterQueue() {
        JsonObject sent = ledger.sendBulk(Json.createObjectBuilder()
                .add("account", account)
                .add("count", 1)
                .add("amount", 9)
                .add("atLeastOnce", true)
                .add("faults", Json.createObjectBuilder().add("failDeliveries", 1_000))
                .build());
        String id = sent.getString("idPrefix") + 0;

        Await.until(
                "the broker moved " + id + " to the dead-letter queue",
                PARKING,
                () -> ledger.deadLetterIds().contains(id));
        assertEquals(0, ledger.balance(account));
    }

    @Test
    void replayedMessageIsBookedOnceAfterTheCauseIsGone() {
        String id = newId();
        long failUntil = System.currentTimeMillis() + 3_000;
        ledger.sendCredit(credit(id, Json.createObjectBuilder().add("failUntilEpochMilli", failUntil)));
        JsonObject parked = awaitParked(byId(id));
        Await.pause(Duration.ofMillis(Math.max(0, failUntil - System.currentTimeMillis() + 500)));

        assertEquals(204, ledger.changeParked("POST", parked.getInt("id") + "/replay", "admin"));

        Await.untilEquals("the replay books the credit", 9L, PARKING, () -> ledger.balance(account));
        assertTrue(ledger.parked().stream().noneMatch(byId(id)), "no longer parked");
        Await.settle();
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue());
    }

    @Test
    void onlyAnAdminChangesParkedMessages() {
        String id = newId();
        ledger.sendRaw(id, "text", "not a credit order either");
        String parked = String.valueOf(awaitParked(byId(id)).getInt("id"));

        assertEquals(403, ledger.changeParked("POST", parked + "/replay", "viewer"));
        assertEquals(403, ledger.changeParked("DELETE", parked, "viewer"));
        assertEquals(204, ledger.changeParked("DELETE", parked, "admin"));
        assertEquals(404, ledger.changeParked("DELETE", parked, "admin"));
    }

    @Test
    void sameIdWithAnotherPayloadIsCountedAsAConflict() {
        String id = newId();
        long conflictsBefore = ledger.deliveries("duplicate_conflict");
        ledger.sendCredit(id, account, 5);
        Await.untilEquals("the first one is booked", 5L, PARKING, () -> ledger.balance(account));

        ledger.sendCredit(id, account, 6);

        Await.until(
                "the conflict is counted", PARKING, () -> ledger.deliveries("duplicate_conflict") > conflictsBefore);
        Await.settle();
        assertEquals(5, ledger.balance(account));
    }

    private JsonObject awaitParked(Predicate<JsonObject> which) {
        Optional<JsonObject>[] found = new Optional[] {Optional.empty()};
        Await.until(
                "the message is parked",
                PARKING,
                () -> (found[0] = ledger.parked().stream().filter(which).findFirst()).isPresent());
        return found[0].get();
    }

    private static Predicate<JsonObject> byId(String id) {
        return each -> id.equals(each.getString("messageId", null));
    }

    private String order(String marker) {
        return Json.createObjectBuilder()
                .add("messageId", marker)
                .add("account", account)
                .add("amount", 1)
                .build()
                .toString();
    }

    private JsonObject credit(String id, jakarta.json.JsonObjectBuilder faults) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", 9)
                .add("faults", faults)
                .build();
    }
}
