package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Topic consumers, on the purge's test server (a purge every 2 s, a dedup window of zero): the
 * harness's two durable subscribers, its non-durable one and its batched receiver (a shared durable
 * subscription) each book every event once, and their IDs are confirmed through the broker's
 * subscriptions — never while a subscription still holds the message.
 */
class TopicIT {

    private static final String FIRST = "org.exactlyonce.harness.FirstCreditSubscriber";
    private static final String SECOND = "org.exactlyonce.harness.SecondCreditSubscriber";
    private static final String LIVE = "org.exactlyonce.harness.LiveCreditSubscriber";
    private static final String BATCHED = "exactly-once-sample/ledger/BatchedCreditSubscriber";

    /** The subscribers whose subscriptions outlive a restart, each with the prefix of the accounts it books to. */
    private static final Map<String, String> DURABLE = Map.of(FIRST, "first-", SECOND, "second-", BATCHED, "batched-");

    private static final Duration DELIVERIES = Duration.ofSeconds(60);
    private static final Duration PURGE_INTERVAL = Duration.ofSeconds(2);

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void eachSubscriberBooksEveryEventOnceAndTheirIdsArePurged() {
        awaitTheNonDurableSubscription();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String id = newId();
            ids.add(id);
            ledger.publishCredit(credit(id, 1));
        }

        Await.untilEquals("the first subscriber books all", 30L, DELIVERIES, () -> ledger.balance("first-" + account));
        Await.untilEquals("the second books all", 30L, DELIVERIES, () -> ledger.balance("second-" + account));
        Await.untilEquals("the non-durable one books all", 30L, DELIVERIES, () -> ledger.balance("live-" + account));
        Await.untilEquals(
                "the batched receiver books all", 30L, DELIVERIES, () -> ledger.balance("batched-" + account));
        Await.until(
                "every subscriber's IDs are confirmed and purged",
                Duration.ofSeconds(30),
                () -> ids.stream()
                        .allMatch(id -> ledger.processed(FIRST, id).isEmpty()
                                && ledger.processed(SECOND, id).isEmpty()
                                && ledger.processed(LIVE, id).isEmpty()
                                && ledger.processed(BATCHED, id).isEmpty()));
        Await.settle();
        assertEquals(30, ledger.balance("first-" + account));
        assertEquals(30, ledger.balance("second-" + account));
        assertEquals(30, ledger.balance("live-" + account));
        assertEquals(30, ledger.balance("batched-" + account));
    }

    @Test
    void theConsoleShowsEachSubscribersTopicAndSubscription() {
        awaitTheNonDurableSubscription();
        String destination = ledger.consumer(FIRST).getString("destination");
        assertTrue(destination.startsWith("topic ") && destination.endsWith("LedgerCreditEvents"), destination);
        assertEquals(
                "durable subscription credit-events, client ID ledger-first",
                ledger.consumer(FIRST).getString("subscription"));
        assertEquals("non-durable subscription", ledger.consumer(LIVE).getString("subscription"));
        assertEquals(
                "shared durable subscription credit-events-batched",
                ledger.consumer(BATCHED).getString("subscription"));
        assertEquals(
                ledger.consumer(FIRST).getString("destination"),
                ledger.consumer(LIVE).getString("destination"));
    }

    /**
     * A subscriber commits and halts before the acknowledgement, its delivery in flight; the purge keeps
     * the ID while the subscription holds the message. After the restart, each subscriber's one effect.
     */
    @Test
    void anIdInFlightOnASubscriptionIsKeptAndEachSubscriberBooksItOnce() throws Exception {
        String id = newId();
        JsonObject crashing = LedgerClient.creditThatCrashesAfterCommit(id, account, 7, Duration.ofSeconds(10));
        server.forgetEarlierHalts();
        ledger.publishCredit(crashing);
        Await.until("a subscriber commits it", DELIVERIES, () -> committedBy(id).isPresent());
        String committed = committedBy(id).orElseThrow();
        JsonObject purge = ledger.purgeNow();
        Await.pause(PURGE_INTERVAL.multipliedBy(2)); // and the timer's runs

        assertEquals(
                "UNCONFIRMED", ledger.processed(committed, id).orElseThrow().getString("state"), "" + purge);
        assertTrue(purge.getInt("keptPending") >= 1, "the purge saw the message in flight: " + purge);
        server.awaitCrash(DELIVERIES); // the subscriber that committed halts after its pause
        server.assertHaltedAt("AFTER_COMMIT");
        server.restart();
        int restarts = 1; // the others halt too, once each, if they commit only now
        while (!settled(id)) {
            Await.until(
                    "both book it once acknowledged, or the server halts",
                    DELIVERIES,
                    () -> !ledger.answers() || settled(id));
            if (!ledger.answers()) {
                assertTrue(++restarts <= DURABLE.size(), "each subscriber halts the server once at most");
                server.awaitHaltAt("AFTER_COMMIT");
                server.restart();
            }
        }
        Await.settle();
        assertTrue(allBooked(7), "each subscriber's one effect");
        for (String prefix : DURABLE.values()) {
            assertEquals(
                    1, ledger.account(prefix + account).getJsonNumber("credits").longValue(), prefix);
        }
    }

    /** A parked event is not replayed: on the topic, every subscriber would receive it again. */
    @Test
    void aParkedEventIsNotReplayedToEverySubscriber() {
        String id = newId();
        ledger.publishCredit(LedgerClient.creditThatFailsEveryDelivery(id, account, 2));
        Await.until("the first subscriber parks the failing event", DELIVERIES, () -> parkedOf(FIRST, id) > 0);

        assertEquals(409, ledger.changeParked("POST", parkedOf(FIRST, id) + "/replay", "admin"));
        Await.settle();
        assertEquals(0, ledger.balance("first-" + account));
    }

    /**
     * A non-durable subscription receives only what is published while it exists: after a server
     * (re)start, events are published until the subscriber books one.
     */
    private void awaitTheNonDurableSubscription() {
        String probe = "probe-" + UUID.randomUUID();
        Await.until("the non-durable subscription receives events", DELIVERIES, () -> {
            ledger.publishCredit(Json.createObjectBuilder()
                    .add("messageId", newId())
                    .add("account", probe)
                    .add("amount", 1)
                    .build());
            Await.pause(Duration.ofSeconds(1));
            return ledger.balance("live-" + probe) > 0;
        });
    }

    private long parkedOf(String consumer, String messageId) {
        return ledger.parked(consumer).stream()
                .filter(each -> messageId.equals(each.getString("messageId", null)))
                .mapToLong(each -> each.getJsonNumber("id").longValue())
                .findFirst()
                .orElse(0);
    }

    /** The durable subscriber that has committed the message's ID; empty while none has. */
    private Optional<String> committedBy(String id) {
        return DURABLE.keySet().stream()
                .filter(subscriber -> ledger.processed(subscriber, id).isPresent())
                .findFirst();
    }

    /** Every durable subscriber booked it, and none still has its delivery in flight. */
    private boolean settled(String id) {
        try {
            return allBooked(7)
                    && DURABLE.keySet().stream().noneMatch(subscriber -> "UNCONFIRMED".equals(stateOf(subscriber, id)));
        } catch (IllegalStateException serverWentDown) {
            return false;
        }
    }

    private String stateOf(String consumer, String id) {
        return ledger.processed(consumer, id).map(row -> row.getString("state")).orElse("PURGED");
    }

    private boolean allBooked(long amount) {
        return ledger.answers()
                && DURABLE.values().stream().allMatch(prefix -> ledger.balance(prefix + account) == amount);
    }

    private JsonObject credit(String id, long amount) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", amount)
                .build();
    }
}
