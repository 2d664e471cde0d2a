package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input and poison messages are parked with their reason, acknowledged, and can be replayed. */
class ParkingIT {

    private static final Duration PARKING = Duration.ofSeconds(60);
    private static final int MAX_DELIVERIES = Integer.getInteger("it.max-deliveries", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void messageWithoutIdIsParkedWhole() {
        String body = order("no-id-" + UUID.randomUUID());

        ledger.sendRaw(null, "text", body);

        JsonObject parked = awaitParked(withBody(body));
        assertEquals("MISSING_ID", parked.getString("reason"));
        assertTrue(parked.getString("detail").contains("'messageId' is not set"), parked.toString());
        assertEquals(1, parked.getInt("attempts"), "parked on its first delivery");
        assertEquals("LedgerCredits", parked.getString("queue"));
    }

    @Test
    void messageWithEmptyIdIsParked() {
        String body = order("empty-id-" + UUID.randomUUID());

        ledger.sendRaw("", "text", body);

        assertEquals("EMPTY_ID", awaitParked(withBody(body)).getString("reason"));
    }

    @Test
    void idLongerThanTheTableHoldsIsParked() {
        String body = order("long-id-" + UUID.randomUUID());

        ledger.sendRaw("x".repeat(201), "text", body);

        JsonObject parked = awaitParked(withBody(body));
        assertEquals("ID_TOO_LONG", parked.getString("reason"));
        assertEquals(
                "x".repeat(201),
                whole(parked)
                        .getJsonObject("properties")
                        .getJsonObject("messageId")
                        .getString("value"),
                "the ID is kept among the properties");
    }

    @Test
    void messageOfATypeTheConsumerRefusesIsParkedWithItsBytes() {
        String id = newId();

        ledger.sendRaw(id, "bytes", "some bytes");

        JsonObject parked = awaitParked(byId(id));
        assertEquals("TYPE_NOT_ACCEPTED", parked.getString("reason"));
        assertEquals("BYTES", parked.getString("bodyType"));
        assertEquals("c29tZSBieXRlcw==", whole(parked).getString("body"));
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
     * The server halts after a park's commit, before the acknowledgement; the message comes back after the
     * restart, when its processing would succeed. It is parked already: acknowledged, never also processed.
     */
    @Test
    @Tag("restarts-the-server")
    void aMessageParkedBeforeACrashIsNotProcessedOnItsRedelivery() throws Exception {
        String id = newId();
        long failUntil = System.currentTimeMillis() + 5_000; // its deliveries fail, and it is parked, before
        server.forgetEarlierHalts();
        ledger.sendCredit(credit(
                id,
                Json.createObjectBuilder().add("failUntilEpochMilli", failUntil).add("crashAt", "AFTER_PARK")));

        server.awaitHaltAt("AFTER_PARK");
        Await.pause(Duration.ofMillis(Math.max(0, failUntil - System.currentTimeMillis()))); // then it would not
        server.restart();

        JsonObject parked = awaitParked(byId(id));
        assertEquals("KEEPS_FAILING", parked.getString("reason"));
        Await.until( // the park was committed before the halt: only a count shows the redelivery came
                "the redelivery is acknowledged as parked, or booked",
                Duration.ofMinutes(1),
                () -> ledger.deliveries("parked") >= 1 || ledger.balance(account) != 0);
        Await.settle();
        assertEquals(0, ledger.balance(account), "kept, not also booked");
        assertEquals(1, ledger.parked().stream().filter(byId(id)).count());
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
    void sameIdWithAnotherPayloadIsParkedWholeAsAReusedId() {
        String id = newId();
        long conflictsBefore = ledger.deliveries("duplicate_conflict");
        ledger.sendCredit(id, account, 5);
        Await.untilEquals("the first one is booked", 5L, PARKING, () -> ledger.balance(account));

        ledger.sendCredit(id, account, 6);

        JsonObject parked = awaitParked(byId(id));
        assertEquals("ID_REUSED", parked.getString("reason"));
        assertTrue(whole(parked).getString("body").contains("\"amount\":6"), "its own payload is kept: " + parked);
        assertTrue(ledger.deliveries("duplicate_conflict") > conflictsBefore);
        assertEquals(409, ledger.changeParked("POST", parked.getInt("id") + "/replay", "admin"));
        Await.settle();
        assertEquals(5, ledger.balance(account));
    }

    /**
     * A message parked while a dependency was down, then sent again by its producer once the cause was
     * gone: the re-send is booked, and a replay of the parked copy would book it twice.
     */
    @Test
    void replayOfAMessageWhoseIdWasProcessedSinceIsRefused() {
        String id = newId();
        ledger.sendCredit(credit(id, Json.createObjectBuilder().add("failDeliveries", 1_000)));
        JsonObject parked = awaitParked(byId(id));

        ledger.sendCredit(id, account, 5);
        Await.untilEquals("the producer's re-send is booked", 5L, PARKING, () -> ledger.balance(account));

        assertEquals(409, ledger.changeParked("POST", parked.getInt("id") + "/replay", "admin"));
        assertTrue(ledger.parked().stream().anyMatch(byId(id)), "still parked, for the operator to discard");
        Await.settle();
        assertEquals(5, ledger.balance(account));
    }

    @Test
    void idNoDatabaseCanStoreIsParked() {
        String body = order("nul-id-" + UUID.randomUUID());

        ledger.sendRaw("nul\0id", "text", body);

        JsonObject parked = awaitParked(withBody(body));
        assertEquals("MALFORMED_ID", parked.getString("reason"));
    }

    /** A producer may disable message IDs: the broker message then has none, and is kept all the same. */
    @Test
    void messageWithoutABrokerIdIsParkedWhole() {
        String body = order("no-broker-id-" + UUID.randomUUID());

        ledger.sendRaw(Json.createObjectBuilder()
                .add("type", "text")
                .add("body", body)
                .add("disableMessageId", true)
                .build());

        JsonObject parked = awaitParked(withBody(body));
        assertEquals("MISSING_ID", parked.getString("reason"));
    }

    /**
     * Every JMS type is kept whole — body, the headers a producer sets, typed properties, the message
     * group — and a replay sends back exactly that: parked again, the copy reads the same.
     */
    @ParameterizedTest
    @ValueSource(strings = {"text", "bytes", "map", "stream", "object", "plain"})
    void everyMessageTypeIsParkedWholeAndReplayedAsItWas(String type) {
        String marker = "whole-" + type + "-" + UUID.randomUUID();
        // the consumer takes text only: a text message is parked for want of an ID, the others for their type
        String id = type.equals("text") ? null : newId();
        var raw = Json.createObjectBuilder()
                .add("type", type)
                .add("body", marker)
                .add("correlationId", "corr-" + marker)
                .add("jmsType", "Audit")
                .add("replyTo", "LedgerCredits.Failed") // a queue every server has: Artemis checks
                .add("priority", 7)
                .add("groupId", "group-" + marker)
                .add("typedProperties", true);
        if (id != null) {
            raw.add("messageId", id);
        }
        ledger.sendRaw(raw.build());
        Predicate<JsonObject> sent = id == null ? withBody(marker) : byId(id);
        JsonObject parked = whole(awaitParked(sent));

        assertEquals(
                type.equals("plain") ? "NONE" : type.toUpperCase(java.util.Locale.ROOT), parked.getString("bodyType"));
        assertBodyHolds(type, marker, parked);
        JsonObject headers = parked.getJsonObject("headers");
        assertEquals("corr-" + marker, headers.getString("correlationId"));
        assertEquals("Audit", headers.getString("type"));
        assertEquals(7, headers.getInt("priority"));
        assertTrue(headers.getJsonObject("replyTo").getString("name").endsWith("LedgerCredits.Failed"));
        JsonObject properties = parked.getJsonObject("properties");
        assertEquals("group-" + marker, properties.getJsonObject("JMSXGroupID").getString("value"));
        assertEquals(typed("Integer", "7"), properties.getJsonObject("JMSXGroupSeq"));
        assertEquals(typed("Integer", "42"), properties.getJsonObject("anInt"));
        assertEquals(typed("Long", String.valueOf(Long.MAX_VALUE)), properties.getJsonObject("aLong"));
        assertEquals(typed("Double", "0.1"), properties.getJsonObject("aDouble"));
        assertEquals(typed("Short", "-3"), properties.getJsonObject("aShort"));

        assertEquals(204, ledger.changeParked("POST", parked.getInt("id") + "/replay", "admin"));

        JsonObject again = whole(awaitParked(sent.and(each -> each.getInt("id") != parked.getInt("id"))));
        assertEquals(parked.getString("bodyType"), again.getString("bodyType"));
        assertEquals(parked.get("body"), again.get("body"));
        assertEquals(parked.getJsonObject("headers"), again.getJsonObject("headers"));
        assertEquals(applications(parked.getJsonObject("properties")), applications(again.getJsonObject("properties")));
    }

    /** The properties but the provider's own ({@code JMS_<vendor>_…}), which it sets on every message. */
    private static Map<String, JsonValue> applications(JsonObject properties) {
        Map<String, JsonValue> applications = new TreeMap<>(properties);
        applications.keySet().removeIf(name -> name.startsWith("JMS_"));
        return applications;
    }

    /** Ten megabytes of text and of bytes park on every database; lists leave the bodies out. */
    @ParameterizedTest
    @ValueSource(strings = {"text", "bytes"})
    void tenMegabyteBodiesAreParkedWhole(String type) {
        String marker = "big-" + type + "-" + UUID.randomUUID();
        int size = 10 * 1024 * 1024;
        String body = marker + "x".repeat(size - marker.length());
        String id = type.equals("text") ? null : newId();
        var raw =
                Json.createObjectBuilder().add("type", type).add("body", marker).add("padTo", size);
        if (id != null) {
            raw.add("messageId", id);
        }

        ledger.sendRaw(raw.build());

        JsonObject listed =
                awaitParked(id == null ? each -> each.getString("bodyPreview").startsWith(marker) : byId(id));
        assertFalse(listed.containsKey("body"), "a list carries no bodies");
        assertTrue(listed.getString("bodyPreview").length() <= 301, "only the start of the body");
        String kept = whole(listed).getString("body");
        assertEquals(
                body,
                type.equals("text") ? kept : new String(Base64.getDecoder().decode(kept), StandardCharsets.UTF_8));
    }

    @Test
    void textWithNulCharactersIsParkedWhole() {
        String body = "nul-" + UUID.randomUUID() + "\0in the middle\0";

        ledger.sendRaw(null, "text", body);

        JsonObject parked = awaitParked(each -> each.getString("bodyPreview").startsWith(body.substring(0, 40)));
        assertEquals(body, whole(parked).getString("body"));
    }

    private JsonObject awaitParked(Predicate<JsonObject> which) {
        Optional<JsonObject>[] found = new Optional[] {Optional.empty()};
        Await.until(
                "the message is parked",
                PARKING,
                () -> (found[0] = ledger.parked().stream().filter(which).findFirst()).isPresent());
        return found[0].get();
    }

    /** The parked message in full, as {@code GET /parked/{id}} has it. */
    private JsonObject whole(JsonObject listed) {
        return ledger.parkedMessage(listed.getInt("id"));
    }

    private static void assertBodyHolds(String type, String marker, JsonObject parked) {
        switch (type) {
            case "text" -> assertEquals(marker, parked.getString("body"));
            case "bytes" ->
                assertEquals(
                        marker,
                        new String(Base64.getDecoder().decode(parked.getString("body")), StandardCharsets.UTF_8));
            case "map" -> {
                JsonObject map = Json.createReader(new StringReader(parked.getString("body")))
                        .readObject();
                assertEquals(typed("String", marker), map.getJsonObject("text"));
                assertEquals(typed("Integer", "42"), map.getJsonObject("int"));
                assertEquals(typed("Character", "x"), map.getJsonObject("char"));
                assertEquals(typed("Bytes", "AAH/"), map.getJsonObject("bytes"));
            }
            case "stream" -> {
                var values = Json.createReader(new StringReader(parked.getString("body")))
                        .readArray();
                assertEquals(typed("String", marker), values.getJsonObject(0));
                assertEquals(typed("Long", "-7"), values.getJsonObject(2));
                assertEquals(7, values.size());
            }
            case "object" ->
                assertTrue(
                        new String(Base64.getDecoder().decode(parked.getString("body")), StandardCharsets.ISO_8859_1)
                                .contains(marker),
                        "the serialized list holds the body");
            // JSON-B leaves a null out on WildFly and writes it on Open Liberty
            default -> assertTrue(!parked.containsKey("body") || parked.isNull("body"), "a plain message has no body");
        }
    }

    private static JsonObject typed(String type, String value) {
        return Json.createObjectBuilder().add("type", type).add("value", value).build();
    }

    private static Predicate<JsonObject> withBody(String body) {
        return each -> body.equals(each.getString("bodyPreview", null));
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
