package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two servers, each with its own messaging engine, consume queues of one name into one database
 * ({@code it-engine-b}, which this test crashes, and {@code it-postgresql}, which purges meanwhile).
 * Each processed ID records the engine that delivered it, so a server confirms only its own engine's
 * IDs: an ID whose message is still on the other engine outlives the dedup window however often the
 * other server purges.
 */
class TwoEnginesIT {

    /** it-postgresql's dedup window, and a few of its purge periods. */
    private static final Duration DEDUP_WINDOW_AND_PURGES =
            Duration.ofSeconds(20).plusSeconds(10);

    private final LedgerClient crashing = new LedgerClient();
    private final LedgerClient purging = new LedgerClient(Phase.secondBaseUrl());
    private final TestServer server = TestServer.of(crashing);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void anIdStillOnOneEngineOutlivesTheOtherServersPurgesAndItsRedeliveryIsDropped() throws Exception {
        String id = newId();
        server.forgetEarlierHalts();
        crashing.sendCredit(LedgerClient.creditThatCrashesAfterCommit(id, account, 30, Duration.ofMillis(500)));
        Await.until(
                "the credit is committed",
                Duration.ofSeconds(30),
                () -> purging.processed(id).isPresent());
        server.awaitHaltAt("AFTER_COMMIT");

        Await.pause(DEDUP_WINDOW_AND_PURGES); // the message waits on the crashed server's engine
        JsonObject purge = purging.purgeNow();

        assertEquals(
                "UNCONFIRMED",
                purging.processed(id).orElseThrow().getString("state"),
                "the other server's purges keep the ID: " + purge);
        assertTrue(
                purge.toString().contains("unconfirmed IDs from broker"),
                "the purge reports the IDs of the engine it does not see: " + purge);
        server.restart();
        Await.until("the redelivery is dropped", Duration.ofMinutes(2), () -> crashing.duplicates() >= 1);
        long credits = crashing.account(account).getJsonNumber("credits").longValue();
        System.out.println("two-engines: messages=1 crashes=1 purges-while-down=1 lost=" + (credits == 0 ? 1 : 0)
                + " duplicated=" + Math.max(0, credits - 1));
        assertEquals(30, crashing.balance(account));
        assertEquals(1, credits);
    }
}
