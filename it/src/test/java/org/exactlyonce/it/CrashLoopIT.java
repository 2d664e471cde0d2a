package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A message whose processing crashes the server, as one that exhausts the memory does, is parked after
 * a bounded number of crashes (exactlyonce.crash-guard.crashes-before-parking, 3 by default) instead of
 * crashing the server after every restart; the messages delivered beside it are booked once each.
 */
class CrashLoopIT {

    private static final int CRASHES_BEFORE_PARKING = 3;

    /** Long enough that a restarted server answers before the message crashes it again. */
    private static final Duration BEFORE_THE_CRASH = Duration.ofSeconds(8);

    /** How long the server must stay up once the message is parked. */
    private static final Duration STAYS_UP = Duration.ofSeconds(15);

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    @Tag("restarts-the-server")
    void aMessageThatCrashesTheServerIsParkedAfterThreeCrashes() throws Exception {
        String killer = newId();
        List<String> beside = new ArrayList<>();
        server.forgetEarlierHalts();
        ledger.sendCredit(Json.createObjectBuilder()
                .add("messageId", killer)
                .add("account", account)
                .add("amount", 1_000)
                .add(
                        "faults",
                        Json.createObjectBuilder()
                                .add("crashAt", "BEFORE_PROCESS")
                                .add("crashEveryDelivery", true)
                                .add("pauseMillis", BEFORE_THE_CRASH.toMillis()))
                .build());
        for (int crash = 1; crash <= CRASHES_BEFORE_PARKING; crash++) {
            String id = newId();
            beside.add(id);
            ledger.sendCredit(id, account, 1);
            server.awaitHaltAt("BEFORE_PROCESS");
            server.restart();
        }

        JsonObject parked = awaitParked(killer);
        assertEquals("CRASHES_THE_SERVER", parked.getString("reason"));
        assertTrue(parked.getString("detail").contains("crashed 3 times"), parked.toString());
        Await.pause(STAYS_UP);
        assertEquals(Optional.empty(), server.haltedAt(), "the message crashed the server once more");
        assertTrue(ledger.isUp(), "the server stays up");
        Await.until(
                "the credits delivered beside it are booked",
                Duration.ofMinutes(1),
                () -> ledger.balance(account) >= beside.size());
        Await.settle();
        assertEquals(beside.size(), ledger.balance(account), "each booked once, the parked one never");
    }

    /** Waits until the message is parked; fails at once when it crashes the server again. */
    private JsonObject awaitParked(String id) {
        JsonObject[] found = new JsonObject[1];
        Await.until("the message is parked", Duration.ofMinutes(1), () -> {
            if (!ledger.answers()) {
                throw new AssertionError("the server went down again after " + CRASHES_BEFORE_PARKING
                        + " crashes and restarts, instead of parking the message");
            }
            found[0] = ledger.parked().stream()
                    .filter(each -> id.equals(each.getString("messageId", null)))
                    .findFirst()
                    .orElse(null);
            return found[0] != null;
        });
        return found[0];
    }
}
