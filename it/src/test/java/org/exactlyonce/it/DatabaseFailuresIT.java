package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Transient database failures (deadlocks, SQLState 40001, injected by the sample as the database would
 * raise them) are retried inside the delivery: the message is processed once, no delivery fails, and
 * nothing is parked, even when the failures outlast the test servers' limit of deliveries.
 */
class DatabaseFailuresIT {

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "deadlocks-" + UUID.randomUUID();

    @Test
    void aDeadlockIsRetriedWithBackOffInsideTheDelivery() {
        assertProcessedOnceWithoutAFailedDelivery(newId(), 2);
    }

    /** More failures than one round of retries: the circuit opens, the consumer pauses, then resumes. */
    @Test
    void failuresOutlastingTheRetriesHoldTheDeliveryUntilTheDatabaseAnswers() {
        assertProcessedOnceWithoutAFailedDelivery(newId(), 12);
    }

    private void assertProcessedOnceWithoutAFailedDelivery(String id, int deadlocks) {
        long failedBefore = ledger.deliveries("failed");
        int parkedBefore = ledger.parked().size();

        ledger.sendCredit(Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", 5)
                .add("faults", Json.createObjectBuilder().add("deadlocks", deadlocks))
                .build());

        Await.untilEquals("the credit is booked", 5L, Duration.ofMinutes(1), () -> ledger.balance(account));
        Await.settle();
        assertEquals(1L, ledger.effects(account).get(id), "one effect");
        assertEquals(failedBefore, ledger.deliveries("failed"), "no delivery was handed back to the broker");
        assertEquals(parkedBefore, ledger.parked().size(), "nothing parked");
        assertTrue(ledger.isUp());
    }
}
