package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A consumer name is recorded with the destination it reads, and a second destination for the name is
 * refused. Runs before any other test of its server has sent the audit consumer a message: the server
 * checks a consumer's destination at its first delivery. So it is the first class of its phase (the
 * failsafe executions order classes by {@link Order}; a class without one comes after).
 */
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsumerIdentityIT {

    private static final String AUDIT_CONSUMER = "org.exactlyonce.harness.audit.LedgerConsumer";
    private static final Duration DELIVERIES = Duration.ofSeconds(60);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "acct-" + UUID.randomUUID();

    /** Another consumer took the name first, on another queue: its IDs are not to be mixed with these. */
    @Test
    @Order(1)
    void aNameRecordedForAnotherQueueIsRefusedAndTheMessageStaysWithTheBroker() {
        String id = newId();
        ledger.forgetConsumer(AUDIT_CONSUMER);
        ledger.recordForeignConsumer(AUDIT_CONSUMER, "SomeOtherQueue");
        try {
            ledger.sendCreditAndAudit(id, account, 3);

            Await.until(
                    "the broker gives the refused message up to its exception destination",
                    DELIVERIES,
                    () -> ledger.deadLetterIds().contains(id));
            assertEquals(0, ledger.balance("audit-" + account), "never processed under a name another consumer has");
            Await.untilEquals("the ledger's own consumer books it", 3L, DELIVERIES, () -> ledger.balance(account));
        } finally {
            ledger.forgetConsumer(AUDIT_CONSUMER);
        }
    }

    @Test
    @Order(2)
    void theFirstDeliveryRecordsTheQueueTheConsumerReads() {
        ledger.sendCreditAndAudit(newId(), account, 1);

        Await.untilEquals("the audit books it", 1L, DELIVERIES, () -> ledger.balance("audit-" + account));
        String destination = ledger.destinationOf(AUDIT_CONSUMER);
        assertTrue(
                destination != null && destination.startsWith("queue ") && destination.endsWith("LedgerAudit"),
                "recorded: " + destination); // WildFly's Artemis may prefix the name with jms.queue.
    }
}
