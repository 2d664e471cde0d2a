package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Database failures that say nothing about the message are retried inside the delivery; a failure that
 * looks transient but recurs for one message while the database answers is that message's own, and
 * bounded like any other.
 */
class DatabaseFailuresIT {

    private static final int MAX_DELIVERIES = Integer.getInteger("it.max-deliveries", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "deadlocks-" + UUID.randomUUID();

    @Test
    void aDeadlockIsRetriedWithBackOffInsideTheDelivery() {
        String id = newId();
        long failedBefore = ledger.deliveries("failed");
        int parkedBefore = ledger.parked().size();

        ledger.sendCredit(deadlocking(id, 2, 5));

        Await.untilEquals("the credit is booked", 5L, Duration.ofMinutes(1), () -> ledger.balance(account));
        Await.settle();
        assertEquals(1L, ledger.effects(account).get(id), "one effect");
        assertEquals(failedBefore, ledger.deliveries("failed"), "no delivery was handed back to the broker");
        assertEquals(parkedBefore, ledger.parked().size(), "nothing parked");
    }

    /**
     * A credit that deadlocks on every attempt: the database answers the probe, so the failure is the
     * credit's. It is parked after the deliveries limit; credits sent beside it are booked within
     * seconds, and the server never reports the database down.
     */
    @Test
    void aMessageThatDeadlocksOnEveryAttemptIsParkedWhileOthersAreBookedAndReadinessStaysUp()
            throws InterruptedException {
        String poison = newId();
        Set<Integer> readiness = ConcurrentHashMap.newKeySet();
        // stopped by a flag, not an interrupt: an interrupt that lands during a request fails it, and the
        // watcher would record its own stop as the server not answering
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                try {
                    readiness.add(ledger.readiness().statusCode());
                } catch (RuntimeException unanswered) {
                    readiness.add(-1); // no answer is not up either
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        });
        watcher.start();
        try {
            ledger.sendCredit(deadlocking(poison, 1_000_000, 100));
            List<String> ordinary = List.of(newId(), newId(), newId(), newId(), newId());
            ordinary.forEach(id -> ledger.sendCredit(id, account, 1));

            Await.untilEquals(
                    "the credits beside it are booked", 5L, Duration.ofSeconds(20), () -> ledger.balance(account));
            Await.until(
                    "the deadlocking credit is parked",
                    Duration.ofMinutes(1),
                    () -> ledger.parked().stream().anyMatch(each -> poison.equals(each.getString("messageId", null))));
        } finally {
            watching.set(false);
            watcher.join();
        }
        JsonObject parked = ledger.parked().stream()
                .filter(each -> poison.equals(each.getString("messageId", null)))
                .findFirst()
                .orElseThrow();
        assertEquals("KEEPS_FAILING", parked.getString("reason"));
        assertEquals(MAX_DELIVERIES, parked.getInt("attempts"));
        assertTrue(parked.getString("detail").contains("while it answers"), parked.getString("detail"));
        assertEquals(Set.of(200), readiness, "readiness stayed up");
        assertEquals(5L, ledger.balance(account));
    }

    private JsonObject deadlocking(String id, int deadlocks, long amount) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", amount)
                .add("faults", Json.createObjectBuilder().add("deadlocks", deadlocks))
                .build();
    }
}
