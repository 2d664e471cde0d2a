package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console's API from outside: who may do what, and that each answer matches what was sent; its
 * OpenAPI document, and the engine's checks in Liberty's MicroProfile Health; what a server started
 * with the shipped defaults offers: sign-in over HTTPS only, the sample's API for its clerk, nothing to
 * other machines while the demo users are in place.
 */
class ConsoleIT {

    private static final String API = "/exactly-once/api";
    private static final String CONSUMER = LedgerClient.CONSUMER;

    private final LedgerClient ledger = new LedgerClient();
    private final String account = "console-" + UUID.randomUUID();

    /** Every read, as method and path. */
    private static final List<String[]> READS = List.of(
            new String[] {"GET", "/exactly-once/"},
            new String[] {"GET", "/exactly-once/console.js"},
            new String[] {"GET", API + "/consumers"},
            new String[] {"GET", API + "/me"},
            new String[] {"GET", API + "/processed?consumer=" + CONSUMER + "&messageId=some-id"},
            new String[] {"GET", API + "/parked"},
            new String[] {"GET", API + "/parked/1"});

    /** Every change. */
    private static final List<String[]> CHANGES = List.of(
            new String[] {"POST", API + "/purge"},
            new String[] {"POST", API + "/parked/1/replay"},
            new String[] {"DELETE", API + "/parked/1"});

    @Test
    void everyPageAndEndpointNeedsAnAuthenticatedUser() {
        for (String[] request : concat(READS, CHANGES)) {
            assertEquals(401, ledger.call(request[0], request[1], null, true).statusCode(), String.join(" ", request));
        }
    }

    @Test
    void aViewerReadsButChangesNothing() {
        for (String[] read : READS) {
            int status = ledger.call(read[0], read[1], "viewer", false).statusCode();
            // an ID no consumer processed, and a parked row this test did not make, may be unknown
            boolean mayBeUnknown = read[1].contains("messageId=some-id") || read[1].endsWith("/parked/1");
            assertTrue(status == 200 || mayBeUnknown && status == 404, String.join(" ", read) + " answered " + status);
        }
        for (String[] change : CHANGES) {
            assertEquals(403, ledger.call(change[0], change[1], "viewer", true).statusCode(), String.join(" ", change));
        }
    }

    @Test
    void aChangeWithoutTheCsrfHeaderIsRefusedEvenForAnAdmin() {
        for (String[] change : CHANGES) {
            assertEquals(403, ledger.call(change[0], change[1], "admin", false).statusCode(), String.join(" ", change));
        }
    }

    @Test
    void anAdminPurgesAndGetsTheReport() {
        HttpResponse<String> purge = ledger.call("POST", API + "/purge", "admin", true);

        assertEquals(200, purge.statusCode(), purge.body());
        JsonObject report = LedgerClient.json(purge).asJsonObject();
        assertTrue(report.containsKey("confirmed") && report.containsKey("deleted"), report.toString());
        assertTrue(report.getJsonObject("idTables").containsKey(CONSUMER), report.toString());
    }

    @Test
    void theDatabasesDurabilitySettingsAreShownJudged() {
        HttpResponse<String> durability = ledger.call("GET", API + "/database/durability", "viewer", false);

        assertEquals(200, durability.statusCode(), durability.body());
        JsonObject answer = LedgerClient.json(durability).asJsonObject();
        assertTrue(answer.getBoolean("known"), answer.toString());
        JsonObject derby = answer.getJsonArray("settings").getJsonObject(0);
        assertEquals("derby.system.durability", derby.getString("name"), answer.toString());
        assertEquals("DURABLE", derby.getString("verdict"), answer.toString());
    }

    @Test
    void theFiguresAndTheLookUpMatchWhatWasSent() {
        String id = newId();
        long processedBefore = ledger.deliveries("processed");

        ledger.sendCredit(id, account, 3);
        Await.untilEquals("the credit is booked", 3L, Duration.ofSeconds(30), () -> ledger.balance(account));

        JsonObject processed = LedgerClient.json(ledger.call(
                        "GET", API + "/processed?consumer=" + CONSUMER + "&messageId=" + id, "viewer", false))
                .asJsonObject();
        assertEquals(id, processed.getString("messageId"));
        assertTrue(List.of("UNCONFIRMED", "ACKNOWLEDGED").contains(processed.getString("state")), processed.toString());
        assertEquals(
                404,
                ledger.call("GET", API + "/processed?consumer=" + CONSUMER + "&messageId=" + newId(), "viewer", false)
                        .statusCode());

        JsonObject consumer = consumer();
        assertTrue(
                consumer.getJsonObject("deliveries").getJsonNumber("processed").longValue() > processedBefore);
        assertTrue(consumer.getJsonNumber("processedLastMinute").longValue() >= 1, consumer.toString());
        assertEquals("queue LedgerCredits", consumer.getString("destination"));
    }

    @Test
    void aParkedMessageIsListedShownAndDiscardedByAnAdmin() {
        String id = newId();
        ledger.sendRaw(id, "bytes", "not a text message");
        Await.until("the message is parked", Duration.ofSeconds(30), () -> parkedId(id) > 0);
        long parkedId = parkedId(id);

        JsonObject shown = LedgerClient.json(ledger.call("GET", API + "/parked/" + parkedId, "viewer", false))
                .asJsonObject();
        assertEquals(id, shown.getString("messageId"));
        assertEquals("TYPE_NOT_ACCEPTED", shown.getString("reason"));
        assertEquals(
                1,
                LedgerClient.json(ledger.call(
                                "GET", API + "/parked?reason=TYPE_NOT_ACCEPTED&consumer=" + CONSUMER, "viewer", false))
                        .asJsonArray()
                        .stream()
                        .filter(p -> id.equals(p.asJsonObject().getString("messageId", null)))
                        .count());
        assertEquals(
                403,
                ledger.call("DELETE", API + "/parked/" + parkedId, "viewer", true)
                        .statusCode());
        assertEquals(
                204,
                ledger.call("DELETE", API + "/parked/" + parkedId, "admin", true)
                        .statusCode());
        assertEquals(
                404,
                ledger.call("GET", API + "/parked/" + parkedId, "viewer", false).statusCode());
        assertEquals(
                400,
                ledger.call("GET", API + "/parked?reason=NO_SUCH_REASON", "viewer", false)
                        .statusCode());
    }

    @Test
    void theSamplesApiIsAClerks() {
        String credit = "/ledger/api/credits";
        String balance = "/ledger/api/accounts/" + account;

        assertEquals(401, ledger.call("POST", credit, null, false).statusCode(), "POST without credentials");
        assertEquals(401, ledger.call("GET", balance, null, false).statusCode(), "GET without credentials");
        for (String user : List.of("viewer", "admin")) {
            assertEquals(403, ledger.call("POST", credit, user, false).statusCode(), "POST as " + user);
            assertEquals(403, ledger.call("GET", balance, user, false).statusCode(), "GET as " + user);
        }
        assertEquals(200, ledger.call("GET", balance, "clerk", false).statusCode(), "GET as clerk");
    }

    @Test
    void overPlainHttpEveryApplicationRedirectsToHttpsBeforeSigningIn() {
        LedgerClient plain = new LedgerClient(Phase.httpUrl());

        for (String path : List.of("/exactly-once/", API + "/consumers", "/ledger/api/accounts/" + account)) {
            HttpResponse<String> answer = plain.call("GET", path, null, false);
            assertEquals(302, answer.statusCode(), path);
            String location = answer.headers().firstValue("Location").orElse("");
            assertTrue(location.startsWith("https://"), path + " redirected to " + location);
        }
    }

    @Test
    void noHeaderTurnsAReadIntoAChange() {
        String id = newId();
        ledger.sendRaw(id, "bytes", "not a text message");
        Await.until("the message is parked", Duration.ofSeconds(30), () -> parkedId(id) > 0);
        String parked = API + "/parked/" + parkedId(id);

        for (String header : List.of("X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override")) {
            for (String user : List.of("viewer", "admin")) {
                HttpResponse<String> answer = ledger.callWithHeader("GET", parked, user, header, "DELETE");
                assertEquals(400, answer.statusCode(), header + " as " + user);
                assertTrue(answer.body().contains(header), answer.body());
            }
        }
        assertEquals(200, ledger.call("GET", parked, "viewer", false).statusCode(), "still parked");
        assertEquals(204, ledger.call("DELETE", parked, "admin", true).statusCode());
    }

    /**
     * The test server runs with the demo users, so it listens on the loopback interface only: the
     * kernel's table of listening sockets shows its HTTP, HTTPS and messaging ports bound to a loopback
     * address, never to a wildcard; a connection to any other address of this machine is refused, and
     * one to the loopback is taken. The table holds on a machine whose only interface is the loopback,
     * where no other address exists to try.
     */
    @Test
    void withTheDemoUsersNoOtherMachineReachesTheServer() throws Exception {
        List<Integer> ports = List.of(
                URI.create(Phase.httpUrl()).getPort(),
                URI.create(Phase.baseUrl()).getPort(),
                Phase.jmsPort());

        for (int port : ports) {
            List<InetAddress> bound = ListeningSockets.boundTo(port);
            assertFalse(bound.isEmpty(), "nothing listens on port " + port);
            for (InetAddress address : bound) {
                assertTrue(address.isLoopbackAddress(), "port " + port + " listens on " + address);
            }
        }
        List<InetAddress> elsewhere = NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
                .toList();
        for (InetAddress address : elsewhere) {
            for (int port : ports) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, port), 2_000);
                    fail("port " + port + " answers on " + address);
                } catch (ConnectException | SocketTimeoutException refused) {
                    // as it should
                }
            }
        }
        for (int port : ports) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            }
        }
    }

    @Test
    void theOpenApiDocumentDescribesTheConsoleApi() {
        HttpResponse<String> document = ledger.call("GET", "/openapi", null, false);

        assertEquals(200, document.statusCode());
        for (String path : List.of("/api/consumers", "/api/processed", "/api/parked/{id}/replay", "/api/purge")) {
            assertTrue(document.body().contains(path), path + " in " + document.body());
        }
    }

    @Test
    void libertysHealthEndpointListsTheEnginesChecks() {
        JsonObject ready = LedgerClient.json(ledger.call("GET", "/health/ready", null, false))
                .asJsonObject();
        JsonObject live = LedgerClient.json(ledger.call("GET", "/health/live", null, false))
                .asJsonObject();

        assertEquals("UP", ready.getString("status"), ready.toString());
        for (String check : List.of(
                "exactly-once-processed-ids",
                "exactly-once-database",
                "exactly-once-durability",
                "exactly-once-messaging")) {
            assertTrue(ready.toString().contains(check), check + " in " + ready);
        }
        assertEquals("UP", live.getString("status"), live.toString());
        assertTrue(live.toString().contains("exactly-once-purge"), live.toString());
    }

    private JsonObject consumer() {
        return LedgerClient.json(ledger.call("GET", API + "/consumers", "viewer", false)).asJsonArray().stream()
                .map(JsonValue::asJsonObject)
                .filter(c -> CONSUMER.equals(c.getString("consumer")))
                .findFirst()
                .orElseThrow();
    }

    private long parkedId(String messageId) {
        return ledger.parked().stream()
                .filter(p -> messageId.equals(p.getString("messageId", null)))
                .mapToLong(p -> p.getJsonNumber("id").longValue())
                .findFirst()
                .orElse(-1);
    }

    private static List<String[]> concat(List<String[]> first, List<String[]> second) {
        return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
    }
}
