package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fallback for IDs that no broker view can be asked about, on a server configured with {@code
 * exactlyonce.purge.confirm-by-age=P1D}: such an ID older than a day is taken as acknowledged, a
 * younger one is kept. The IDs are another engine's, written into the table as that engine's server
 * would have, a day ago and less.
 */
class ConfirmationByAgeIT {

    private static final String CONSUMER = "org.exactlyonce.sample.ledger.LedgerConsumer";

    private final LedgerClient ledger = new LedgerClient();
    private final PostgreSql database = new PostgreSql();
    private final ServerLog log = new ServerLog();

    @Test
    void anotherBrokersIdOlderThanTheAgeIsConfirmedAndAYoungerOneIsKept() throws Exception {
        String account = "acct-" + UUID.randomUUID();
        ledger.sendCredit(newId(), account, 1); // the consumer is deployed and its queue recorded
        Await.untilEquals("a credit is booked", 1L, Duration.ofSeconds(60), () -> ledger.balance(account));
        String old = newId();
        String young = newId();
        long confirmationsByAge = log.linesMentioning("confirmed-by-age=");
        database.execute(processedByAnotherEngine(old, 25) + "; " + processedByAnotherEngine(young, 23));
        try {
            JsonObject purge = ledger.purgeNow();

            assertEquals("UNCONFIRMED", stateOf(young), "younger than a day: kept, " + purge);
            assertTrue(
                    purge.getJsonObject("unconfirmable").containsKey(CONSUMER),
                    "still reported unconfirmable: " + purge);
            assertEquals("ACKNOWLEDGED", stateOf(old), "older than a day: taken as acknowledged, " + purge);
            assertTrue(log.linesMentioning("confirmed-by-age=") > confirmationsByAge, "the purge says so");
        } finally {
            // as the README says of IDs deleted by hand: the kept count of acknowledged IDs is counted again
            database.execute("DELETE FROM EO_PROCESSED_MESSAGE WHERE MESSAGE_ID IN ('" + old + "', '" + young + "');"
                    + " UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = NULL WHERE CONSUMER = '" + CONSUMER + "'");
        }
    }

    private static String processedByAnotherEngine(String messageId, int hoursAgo) {
        return "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT, BROKER) VALUES ('"
                + CONSUMER + "', '" + messageId + "', (now() AT TIME ZONE 'UTC') - interval '" + hoursAgo
                + " hours', 'an-engine-this-server-does-not-see')";
    }

    private String stateOf(String messageId) {
        return ledger.processed(messageId).orElseThrow().getString("state");
    }
}
