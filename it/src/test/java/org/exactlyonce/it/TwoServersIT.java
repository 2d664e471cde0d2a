package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two servers, one queue, one PostgreSQL database: server A runs the messaging engine, server B consumes
 * the same queue remotely, both with four concurrent consumers and both purging the one table. Every
 * message is sent three times in a row, so its copies race across the servers. Both record server A's
 * engine as the broker of what they process, so A's purge confirms the IDs of both.
 */
class TwoServersIT {

    private static final int MESSAGES = 500;
    private static final int COPIES = 3;

    private final LedgerClient serverA = new LedgerClient();
    private final LedgerClient serverB = new LedgerClient(Phase.secondBaseUrl());
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void everyMessageSentThreeTimesHasOneEffectAcrossTwoServers() {
        long resolvedByABefore = serverA.resolved();
        long resolvedByBBefore = serverB.resolved();

        String prefix = serverA.sendBulk(Json.createObjectBuilder()
                        .add("account", account)
                        .add("count", MESSAGES)
                        .add("amount", 1)
                        .add("copies", COPIES)
                        .build())
                .getString("idPrefix");
        Await.untilEquals(
                "every copy is processed or dropped on one of the servers",
                (long) MESSAGES * COPIES,
                Duration.ofMinutes(5),
                () -> serverA.resolved() - resolvedByABefore + serverB.resolved() - resolvedByBBefore);
        Await.settle();

        Map<String, Long> effects = serverA.effects(account);
        long total = effects.values().stream().mapToLong(Long::longValue).sum();
        long duplicated = effects.values().stream().filter(count -> count > 1).count();
        long lost = 0;
        for (int i = 0; i < MESSAGES; i++) {
            lost += effects.containsKey(prefix + i) ? 0 : 1;
        }
        System.out.println("two-servers: messages=" + MESSAGES + " copies=" + COPIES + " effects=" + total + " lost="
                + lost + " duplicated=" + duplicated);
        System.out.println("two-servers: processed by A=" + serverA.deliveries("processed") + " B="
                + serverB.deliveries("processed") + ", duplicates dropped by A=" + serverA.duplicates() + " B="
                + serverB.duplicates());

        assertEquals(0, lost, "lost");
        assertEquals(0, duplicated, "duplicated");
        assertEquals(MESSAGES, total, "effects");
        // each server took part: which copy of an ID comes first is the race's to decide (how little
        // the remote consumer gets is measured, not asserted, until the load spreads fairly)
        assertTrue(
                serverA.resolved() > resolvedByABefore && serverB.resolved() > resolvedByBBefore,
                "both consumed copies");
        // server B reads server A's engine, so A's purge confirms the IDs B processed too
        Await.untilEquals(
                "server A's purge confirms every ID either server processed",
                0L,
                Duration.ofSeconds(30),
                serverA::unconfirmedIds);
        assertEquals(0, serverA.lastPurge().getInt("failedBatches"), "server A purges without failure");
        assertEquals(0, serverB.lastPurge().getInt("failedBatches"), "server B purges without failure");
    }

    /**
     * Both servers book credits and write receipts to the one outbox table, and both relay it: the
     * lease on the receipts' queue lets one relay at a time send, so the two together send each receipt
     * once (no crash here, so no second send is due), and each is booked once.
     */
    @Test
    void receiptsWrittenOnBothServersAreSentOnceBetweenTheirTwoRelays() {
        long sentBefore = sent(serverA) + sent(serverB);
        String prefix = serverA.sendBulk(Json.createObjectBuilder()
                        .add("account", account)
                        .add("count", MESSAGES)
                        .add("amount", 1)
                        .add("withReceipts", true)
                        .build())
                .getString("idPrefix");
        Await.untilEquals("every receipt is booked", (long) MESSAGES, Duration.ofMinutes(5), () ->
                (long) serverA.effects("receipts-" + account).size());
        Await.settle();

        Map<String, Long> receipts = serverA.effects("receipts-" + account);
        long sentByA = sent(serverA);
        long sentByB = sent(serverB);
        System.out.println("two-servers: receipts relayed by A and B together=" + (sentByA + sentByB - sentBefore));
        for (int i = 0; i < MESSAGES; i++) {
            assertEquals(1L, receipts.get(prefix + i), "receipts of " + prefix + i);
        }
        assertEquals(MESSAGES, sentByA + sentByB - sentBefore, "receipts the two relays sent");
    }

    private static long sent(LedgerClient server) {
        return server.outbox().getJsonNumber("sent").longValue();
    }
}
