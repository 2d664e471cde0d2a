package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Servers side by side on one queue of a standalone Artemis broker, with one PostgreSQL database: the
 * phase's server and two Liberty test servers beside it ({@code it.shared.liberty-servers}, by name,
 * started here and stopped after), every one consuming with the same number of sessions. A round sends
 * every credit twice, so that its copies race across the servers, and checks that every ID has one
 * effect and that no server is starved: each resolves (books or drops) at least a quarter of an even
 * share of the deliveries. Then the crash suite runs across them all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SharedQueueIT {

    private static final int MESSAGES = 1_000;
    private static final int COPIES = 2;
    private static final Duration PROCESSING = Duration.ofMillis(10);

    private final LedgerClient phaseServer = new LedgerClient();
    private final List<Participant> servers = new ArrayList<>(List.of(new Participant("phase server", phaseServer)));
    private final List<LibertyServer> started = new ArrayList<>();
    private final List<String> others = Arrays.stream(
                    System.getProperty("it.shared.liberty-servers", "").split(","))
            .filter(each -> !each.isBlank())
            .toList();

    @Test
    @Order(1)
    void threeServersShareTheQueueAndBookEveryCreditOnce() throws Exception {
        assertEquals(2, others.size(), "it.shared.liberty-servers names the two Liberty servers beside the phase's");
        for (String other : others) {
            join(other);
        }
        round();
    }

    /**
     * The crash suite across the three servers and the broker: each server in turn crashed at a crash
     * point or by {@code kill -9}, and the broker killed, while credits flow with producer re-sends. It
     * needs the servers the rounds before started: run the whole class.
     */
    @Test
    @Order(2)
    void everyCreditHasOneEffectAfterCrashesOfEveryServerAndTheBroker() throws Exception {
        List<TestServer> crashing = new ArrayList<>(List.of(TestServer.of(phaseServer)));
        crashing.addAll(started);
        assertEquals(3, crashing.size(), "the servers the first test started, and the phase's");
        CrashSuite suite = new CrashSuite(crashing);
        CrashSuite.Result result = suite.runAtEveryPoint();

        System.out.println("shared-queue: servers=" + crashing.size() + " " + result.figures());
        System.out.println("shared-queue: crashed at " + result.crashes());
        assertTrue(result.lost().isEmpty() && result.duplicated().isEmpty(), result.details());
        // one crash more for each purge point that a server's purge never reached and the next server's did
        assertTrue(result.crashes().size() >= suite.crashes(), result.details());
        assertEquals(List.of(), result.unreached(), "armed points no delivery or purge reached: " + result.details());
    }

    @AfterAll
    void stopTheServersStartedHere() throws Exception {
        for (LibertyServer server : started) {
            server.stop();
        }
    }

    /** Starts another Liberty test server of the phase and counts it in. */
    private void join(String name) throws Exception {
        LedgerClient client = new LedgerClient(Phase.baseUrlOf(name));
        LibertyServer server = new LibertyServer(client, name);
        server.restart();
        started.add(server);
        servers.add(new Participant(name, client));
    }

    private void round() {
        Map<Participant, Long> before = resolvedByEach();
        String account = "shared-" + UUID.randomUUID();
        String prefix = phaseServer
                .sendBulk(Json.createObjectBuilder()
                        .add("account", account)
                        .add("count", MESSAGES)
                        .add("amount", 1)
                        .add("copies", COPIES)
                        .add("faults", Json.createObjectBuilder().add("processMillis", PROCESSING.toMillis()))
                        .build())
                .getString("idPrefix");
        Await.untilEquals(
                "every copy is booked or dropped on one of the servers",
                (long) MESSAGES * COPIES,
                Duration.ofMinutes(5),
                () -> resolvedByEach().entrySet().stream()
                        .mapToLong(each -> each.getValue() - before.get(each.getKey()))
                        .sum());
        Await.settle();

        Map<String, Long> effects = phaseServer.effects(account);
        long lost = 0;
        for (int i = 0; i < MESSAGES; i++) {
            lost += effects.containsKey(prefix + i) ? 0 : 1;
        }
        long duplicated = effects.values().stream().filter(count -> count > 1).count();
        Map<Participant, Long> after = resolvedByEach();
        String shares = servers.stream()
                .map(each -> each.name() + " " + percent(after.get(each) - before.get(each)))
                .collect(Collectors.joining(", "));
        System.out.println(
                "shared-queue: servers=" + servers.size() + " messages=" + MESSAGES + " copies=" + COPIES + " shares="
                        + shares.replace(" ", ":").replace(",:", ",") + " lost=" + lost + " duplicated=" + duplicated);

        assertEquals(0, lost, "lost");
        assertEquals(0, duplicated, "duplicated");
        assertEquals(MESSAGES, effects.size(), "booked");
        // not starved: a quarter of an even share. Half was too strict on 2 shared cores, where the last
        // server started is the coldest (measured in a CI run: 49 %, 36 % and 15 % of the deliveries)
        long aQuarterOfAnEvenShare = (long) MESSAGES * COPIES / servers.size() / 4;
        for (Participant server : servers) {
            assertTrue(
                    after.get(server) - before.get(server) >= aQuarterOfAnEvenShare,
                    server.name() + " resolved at least a quarter of an even share (" + aQuarterOfAnEvenShare + "): "
                            + shares);
        }
    }

    private Map<Participant, Long> resolvedByEach() {
        return servers.stream()
                .collect(Collectors.toMap(each -> each, each -> each.client().resolved()));
    }

    private static String percent(long resolved) {
        return Math.round(100.0 * resolved / (MESSAGES * COPIES)) + " %";
    }

    private record Participant(String name, LedgerClient client) {}
}
