package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A PostgreSQL primary with a streaming standby on this machine ({@code src/test/sh/postgresql-pair.sh}),
 * and a Liberty server whose data source lists both with {@code targetServerType=primary}. Under load,
 * the primary is killed with {@code kill -9} and the standby promoted, then the old primary is copied
 * afresh and streams from the new one, again and again. With a synchronous standby every credit has one
 * effect, none is parked. With an asynchronous one the run reports what a failover took back, and the
 * durability guard reports the setting it would refuse without the server's acceptance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseFailoverIT {

    private static final int MESSAGES = Integer.getInteger("db-failover.messages", 1000);
    private static final int FAILOVERS = Integer.getInteger("db-failover.failovers", 3);

    private final LedgerClient ledger = new LedgerClient();
    private final LibertyServer server = new LibertyServer(ledger);

    @Test
    @Order(1)
    void aSynchronousStandbyTakesOverWithEveryCreditBookedOnce() throws Exception {
        startOn("synchronous");
        assertEquals("DURABLE", standbyNamesVerdict(), "a synchronous standby keeps every commit");
        int parkedBefore = ledger.parked().size();

        Figures figures = failOverAgainAndAgain();

        System.out.println(figures.summary("synchronous"));
        assertTrue(figures.lost.isEmpty() && figures.duplicated.isEmpty(), figures.details());
        assertEquals(parkedBefore, ledger.parked().size(), "no credit parked by a failover");
        assertEquals(List.of(), ledger.deadLetterIds(), "no credit dead-lettered by a failover");
    }

    /** What the guard is for: reported, not asserted, since a failover on loopback may lose nothing. */
    @Test
    @Order(2)
    void anAsynchronousStandbyIsWhatTheGuardRefuses() throws Exception {
        startOn("asynchronous");
        assertEquals(
                "ACCEPTED_RISK",
                standbyNamesVerdict(),
                "an asynchronous standby loses commits at a failover: refused unless accepted, as it-failover does");

        Figures figures = failOverAgainAndAgain();

        System.out.println(figures.summary("asynchronous"));
        System.out.println("db-failover: asynchronous " + figures.details());
    }

    @AfterAll
    void stopTheServerAndThePair() throws Exception {
        if (ledger.answers()) {
            server.stop();
        }
        pair("destroy");
    }

    /** A fresh pair, and the server started on it: its pool and its consumers' rows from scratch. */
    private void startOn(String replication) throws Exception {
        if (ledger.answers()) {
            server.stop();
        }
        pair(
                "create",
                System.getProperty("it.postgresql-pair.port-a"),
                System.getProperty("it.postgresql-pair.port-b"),
                replication,
                System.getProperty("it.ddl"));
        server.restart();
    }

    private Figures failOverAgainAndAgain() throws Exception {
        CrashSuite suite = new CrashSuite(server);
        CrashSuite.DatabaseOutage failover =
                new CrashSuite.DatabaseOutage("failover", () -> pair("failover"), () -> pair("rejoin"));
        Figures figures = new Figures();
        for (int round = 0; round < FAILOVERS; round++) {
            figures.add(suite.runWithOutage(MESSAGES / FAILOVERS, failover, Duration.ZERO, () -> {}));
        }
        return figures;
    }

    private String standbyNamesVerdict() {
        JsonObject durability = LedgerClient.json(
                        ledger.call("GET", "/exactly-once/api/database/durability", "viewer", false))
                .asJsonObject();
        return durability.getJsonArray("settings").stream()
                .map(JsonValue::asJsonObject)
                .filter(setting -> setting.getString("name").equals("synchronous_standby_names"))
                .map(setting -> setting.getString("verdict"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no synchronous_standby_names in " + durability));
    }

    private static void pair(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                System.getProperty("it.postgresql-pair.script", "src/test/sh/postgresql-pair.sh"),
                arguments[0],
                System.getProperty("it.postgresql-pair.dir")));
        command.addAll(List.of(arguments).subList(1, arguments.length));
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (!process.waitFor(3, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError("failed: " + command);
        }
    }

    /** The rounds' results, added up into the one summary line. */
    private static final class Figures {
        private final List<String> lost = new ArrayList<>();
        private final List<String> duplicated = new ArrayList<>();
        private int messages;
        private int failovers;

        void add(CrashSuite.Result round) {
            messages += round.messages();
            failovers += round.outages();
            lost.addAll(round.lost());
            duplicated.addAll(round.duplicated());
        }

        String summary(String replication) {
            return "db-failover: database=postgresql replication=" + replication + " failovers=" + failovers
                    + " messages=" + messages + " lost=" + lost.size() + " duplicated=" + duplicated.size();
        }

        String details() {
            return "lost=" + lost + " duplicated=" + duplicated;
        }
    }
}
