package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The server halted (as by {@code kill -9}) at the protocol's crash points, then restarted: the
 * message is redelivered and still has exactly one effect.
 */
class CrashIT {

    private static final Duration RECOVERY = Duration.ofMinutes(2);

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void crashAfterCommitBeforeAckIsDroppedOnRedelivery() throws Exception {
        crashWhileProcessing("AFTER_COMMIT");

        Await.until("the redelivery is dropped as a duplicate", RECOVERY, () -> ledger.duplicates() >= 1);
        Await.settle();
        assertEquals(40, ledger.balance(account));
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue());
    }

    @Test
    void crashBeforeCommitIsProcessedOnceAfterRestart() throws Exception {
        crashWhileProcessing("BEFORE_COMMIT");

        Await.untilEquals("the redelivery books the credit", 40L, RECOVERY, () -> ledger.balance(account));
        Await.settle();
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue());
    }

    /**
     * The delivery pauses a second at the step before the halt, so that the request that sent the
     * credit has its answer first: a delivery can reach the step before the sender's response is out.
     */
    private void crashWhileProcessing(String step) throws Exception {
        ledger.sendCredit(Json.createObjectBuilder()
                .add("messageId", newId())
                .add("account", account)
                .add("amount", 40)
                .add("faults", Json.createObjectBuilder().add("crashAt", step).add("pauseMillis", 1_000))
                .build());
        server.awaitCrash();
        server.restart();
    }
}
