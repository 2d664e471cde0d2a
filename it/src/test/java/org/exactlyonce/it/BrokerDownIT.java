package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The phase's standalone broker is down: a send answers 503 with the reason within a bounded time,
 * never holds the request while the client reconnects, and the same order sent again once the broker
 * is back is booked once. Sending again is what the product makes safe.
 */
class BrokerDownIT {

    /**
     * The longest a send may take to fail: less than the adapters' call timeout (30 s), which a send on a
     * connection that reconnects waits out after its failover wait.
     */
    private static final Duration FAILS_WITHIN = Duration.ofSeconds(25);

    /** Long enough for the server to notice that its connections dropped, and start reconnecting them. */
    private static final Duration NOTICED = Duration.ofSeconds(3);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void aSendWhileTheBrokerIsDownAnswers503AndTheSameOrderSentAgainIsBookedOnce() throws Exception {
        StandaloneBroker broker = StandaloneBroker.ofThePhase()
                .orElseThrow(() -> new AssertionError("this phase names no standalone broker (it.artemis.instance)"));
        ledger.sendCredit(newId(), account, 1); // the server's pooled connections are up
        JsonObject order = Json.createObjectBuilder()
                .add("messageId", newId())
                .add("account", account)
                .add("amount", 10)
                .build();

        broker.kill();
        Await.pause(NOTICED);
        HttpResponse<String> refused;
        Instant sent = Instant.now();
        try {
            refused = ledger.post("/ledger/api/credits", order);
        } finally {
            broker.start();
        }
        Duration took = Duration.between(sent, Instant.now());
        System.out.println("broker-down: " + refused.statusCode() + " after " + took.toMillis() + " ms");

        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("send it again"), refused.body());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
        assertTrue(took.compareTo(FAILS_WITHIN) < 0, "the send failed after " + took);

        ledger.sendCredit(order.getString("messageId"), account, 10); // again while 503, as a producer does
        Await.untilEquals("both orders booked", 11L, Duration.ofSeconds(60), () -> ledger.balance(account));
        Await.settle();
        assertEquals(2, ledger.account(account).getJsonNumber("credits").longValue());
    }
}
