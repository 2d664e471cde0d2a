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
 * The phase's standalone broker is down, or hangs: a send answers 503 with the reason within a bounded
 * time, whether it comes before the server has noticed or after, and the same orders sent again once the
 * broker is back are booked once. Sending again is what the product makes safe.
 */
class BrokerDownIT {

    /**
     * The longest a send may take to fail: the sending connection factories' call timeout (10 s, in
     * liberty-config/messaging/artemis.xml and wildfly-config/standalone-artemis.cli), which a send waits
     * out when the broker goes while it waits for the reply (one send in five did, with the default
     * 30 s) or when the broker hangs, and a few seconds more.
     */
    private static final Duration FAILS_WITHIN = Duration.ofSeconds(15);

    /** Long enough for the server to notice that its connections dropped. */
    private static final Duration NOTICED = Duration.ofSeconds(3);

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void aSendWhileTheBrokerIsDownAnswers503AndTheSameOrderSentAgainIsBookedOnce() throws Exception {
        StandaloneBroker broker = thePhasesBroker();
        ledger.sendCredit(newId(), account, 1); // the server's pooled connections are up
        JsonObject atOnce = order(10);
        JsonObject noticed = order(20);

        broker.kill();
        try {
            refusedInTime(atOnce, "at once");
            Await.pause(NOTICED);
            refusedInTime(noticed, "once noticed");
        } finally {
            broker.start();
        }

        // again while 503, as a producer does
        ledger.sendCredit(atOnce.getString("messageId"), account, 10);
        ledger.sendCredit(noticed.getString("messageId"), account, 20);
        Await.untilEquals("every order booked", 31L, Duration.ofSeconds(60), () -> ledger.balance(account));
        Await.settle();
        assertEquals(3, ledger.account(account).getJsonNumber("credits").longValue());
    }

    /**
     * A broker that hangs holds the send's connection open and never answers: the send gives up at the
     * call timeout. The broker may still take the message when it goes on, so the order sent again is
     * either a duplicate or the first copy: one credit either way.
     */
    @Test
    void aSendToABrokerThatHangsAnswers503WithinTheCallTimeoutAndTheOrderSentAgainIsBookedOnce() throws Exception {
        StandaloneBroker broker = thePhasesBroker();
        ledger.sendCredit(newId(), account, 1); // the server's pooled connections are up
        JsonObject order = order(40);

        broker.freeze();
        try {
            refusedInTime(order, "to a hung broker");
        } finally {
            broker.thaw();
        }

        ledger.sendCredit(order.getString("messageId"), account, 40);
        Await.untilEquals("the order booked", 41L, Duration.ofSeconds(60), () -> ledger.balance(account));
        Await.settle();
        assertEquals(2, ledger.account(account).getJsonNumber("credits").longValue());
    }

    private static StandaloneBroker thePhasesBroker() {
        return StandaloneBroker.ofThePhase()
                .orElseThrow(() -> new AssertionError("this phase names no standalone broker (it.artemis.instance)"));
    }

    private void refusedInTime(JsonObject order, String when) {
        Instant sent = Instant.now();
        HttpResponse<String> refused = ledger.post("/ledger/api/credits", order);
        Duration took = Duration.between(sent, Instant.now());
        System.out.println("broker-down: a send " + when + " answered " + refused.statusCode() + " after "
                + took.toMillis() + " ms");

        assertEquals(503, refused.statusCode(), when + ": " + refused.body());
        assertTrue(refused.body().contains("send it again"), refused.body());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
        assertTrue(took.compareTo(FAILS_WITHIN) < 0, "the send " + when + " failed after " + took);
    }

    private JsonObject order(int amount) {
        return Json.createObjectBuilder()
                .add("messageId", newId())
                .add("account", account)
                .add("amount", amount)
                .build();
    }
}
