package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * A user's application built from the README alone (orders/): its EAR with the engine, the console and
 * one consumer, on a Liberty whose server.xml is the README's and on a WildFly set up by the README's
 * script. The README shows exactly what the server runs, and the consumer books every order once
 * though each is sent twice.
 */
class UserApplicationIT {

    private static final String CONSUMER = "org.exactlyonce.orders.OrderConsumer";
    private static final int ORDERS = 100;

    private final LedgerClient server = new LedgerClient();

    /**
     * The README's Liberty has neither Jakarta Concurrency nor MicroProfile Telemetry: the engine must
     * not name their types where the container reads them at start.
     */
    @Test
    void theUsersLibertyLogsNoWarningOrError() {
        assumeFalse(Phase.onWildFly(), "the README's WildFly logs its own keystore warnings");

        assertEquals(List.of(), new ServerLog().libertyWarningsAndErrors());
    }

    /** Liberty's server.xml, or the CLI script that set WildFly up for the user's queue. */
    @Test
    void theReadmeShowsTheSetupThisServerRuns() throws IOException {
        String serverXml = System.getProperty("it.orders.server-xml");
        String setup = serverXml != null
                ? "```xml\n" + Files.readString(Path.of(serverXml)).strip() + "\n```"
                : "```\n"
                        + Files.readString(Path.of(System.getProperty("it.orders.cli")))
                                .strip() + "\n```";

        assertTrue(readme().contains(setup), "the README shows, as it is:\n" + setup);
    }

    @Test
    void theReadmeShowsTheConsumerThisServerRuns() throws IOException {
        String source = Files.readString(Path.of(System.getProperty("it.orders.consumer")));
        String bean =
                "```java\n" + source.substring(source.indexOf("@MessageDriven")).strip() + "\n```";

        assertTrue(readme().contains(bean), "the README shows, as it is:\n" + bean);
    }

    @Test
    void everyOrderIsBookedOnceThoughSentTwice() throws Exception {
        int first = ThreadLocalRandom.current().nextInt(1_000_000, 2_000_000_000 - ORDERS);
        long duplicatesBefore = duplicates(consumer());

        assertEquals(
                200,
                server.call(
                                "POST",
                                "/orders-sender/api/orders?first=" + first + "&count=" + ORDERS + "&copies=2",
                                null,
                                false)
                        .statusCode());

        Await.until(
                "every copy is delivered",
                Duration.ofMinutes(2),
                () -> duplicates(consumer()) - duplicatesBefore >= ORDERS);
        PostgreSql orders = new PostgreSql(System.getProperty("it.orders.database", "orders"));
        String range = "DESCRIPTION IN (" + descriptions(first) + ")";
        assertEquals(String.valueOf(ORDERS), orders.value("SELECT COUNT(*) FROM ORDERS WHERE " + range));
        assertEquals(
                String.valueOf(ORDERS), orders.value("SELECT COUNT(DISTINCT DESCRIPTION) FROM ORDERS WHERE " + range));
        assertEquals("queue Orders", consumer().getString("destination"));
    }

    @Test
    void theConsoleIsTheOperatorsOverHttps() {
        assertEquals(
                401,
                server.call("GET", "/exactly-once/api/consumers", null, false).statusCode());
        assertEquals(
                200,
                server.call("GET", "/exactly-once/api/consumers", "operator", false)
                        .statusCode());
    }

    private static String readme() throws IOException {
        return Files.readString(Path.of(System.getProperty("it.readme")));
    }

    private static String descriptions(int first) {
        List<String> quoted = new ArrayList<>();
        for (int n = first; n < first + ORDERS; n++) {
            quoted.add("'order-" + n + "'");
        }
        return String.join(",", quoted);
    }

    /** The console's figures of the user's consumer, as its operator sees them; null before its first delivery. */
    private JsonObject consumer() {
        return server.consumer(CONSUMER, "operator");
    }

    private static long duplicates(JsonObject consumer) {
        if (consumer == null) {
            return 0;
        }
        JsonObject deliveries = consumer.getJsonObject("deliveries");
        return deliveries.getJsonNumber("duplicate_already_committed").longValue()
                + deliveries.getJsonNumber("duplicate_lost_race").longValue();
    }
}
