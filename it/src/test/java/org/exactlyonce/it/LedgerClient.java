package org.exactlyonce.it;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The sample's and the console's HTTP APIs, as a test drives them from outside the server. */
final class LedgerClient {

    /** The sample consumer's name: its class's, the default. */
    static final String CONSUMER = "org.exactlyonce.sample.ledger.LedgerConsumer";

    /** Longer than a server takes to reconnect to a restarted broker. */
    private static final Duration SEND_AGAIN_FOR = Duration.ofSeconds(30);

    private static final String ADMIN = basic("admin");
    /** The sample's API is a clerk's. */
    private static final String CLERK = basic("clerk");

    /** How many connections a GET tries before its failure counts: see {@link #send}. */
    private static final int STALE_CONNECTIONS_TRIED = 3;

    /** The demo users' credentials: each one's password is its name. */
    static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
    }

    // HTTP/1.1: the client's default upgrades cleartext requests to HTTP/2 (h2c), and Liberty left such a
    // request for the console's welcome page unanswered (measured); browsers never use h2c. The test
    // servers' certificates are their own, self-signed: trusted as they are.
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(TestServerCertificates.trustingThem())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String baseUrl;

    /** The client of the test phase's server. */
    LedgerClient() {
        this(Phase.baseUrl());
    }

    /** Health is on the application's port on Open Liberty; WildFly serves it on its management port. */
    LedgerClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Sends a plain credit through the sample's own API, as a user's client would. */
    void sendCredit(String messageId, String account, long amount) {
        expect(
                202,
                postOrder(
                        "/ledger/api/credits",
                        Json.createObjectBuilder()
                                .add("messageId", messageId)
                                .add("account", account)
                                .add("amount", amount)
                                .build()));
    }

    /** A credit order whose processing fails on every delivery, so that the consumer parks it. */
    static JsonObject creditThatFailsEveryDelivery(String id, String account, long amount) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", amount)
                .add("faults", Json.createObjectBuilder().add("failDeliveries", 1_000))
                .build();
    }

    /** A credit whose delivery halts the server after the commit, before the acknowledgement, after a pause. */
    static JsonObject creditThatCrashesAfterCommit(String id, String account, long amount, Duration pause) {
        return Json.createObjectBuilder()
                .add("messageId", id)
                .add("account", account)
                .add("amount", amount)
                .add(
                        "faults",
                        Json.createObjectBuilder()
                                .add("crashAt", "AFTER_COMMIT")
                                .add("pauseMillis", pause.toMillis()))
                .build();
    }

    /** Publishes a credit order on the credit events topic, which both subscribers read. */
    void publishCredit(JsonObject order) {
        expect(202, postOrder("/ledger/api/test-credits?topic=true", order));
    }

    void sendCredit(JsonObject order) {
        HttpResponse<String> response = postOrder("/ledger/api/test-credits", order);
        expect(202, response);
    }

    /**
     * Sends a credit to the consumer that books it and sends a receipt through the outbox, which the
     * receipts' consumer books to {@code receipts-<account>}.
     */
    void sendCreditWithReceipt(JsonObject order) {
        expect(202, postOrder("/ledger/api/test-credits?receipt=true", order));
    }

    /** Writes a text message for the named queue to the outbox; answers its ID. */
    String sendThroughOutbox(String queue, String text) {
        HttpResponse<String> response = post(
                "/ledger/api/test-messages/outbox",
                Json.createObjectBuilder().add("queue", queue).add("text", text).build());
        expect(200, response);
        return response.body();
    }

    /** The console's figures of the outbox: {@code backlog}, {@code oldestAgeSeconds}, {@code failing}. */
    JsonObject outbox() {
        HttpResponse<String> response = get("/exactly-once/api/outbox", ADMIN);
        expect(200, response);
        return parse(response.body()).asJsonObject();
    }

    /** Sends a credit to the ledger's consumer and to the audit consumer, which books it to {@code audit-<account>}. */
    void sendCreditAndAudit(String messageId, String account, long amount) {
        expect(
                202,
                postOrder(
                        "/ledger/api/test-credits?audit=true",
                        Json.createObjectBuilder()
                                .add("messageId", messageId)
                                .add("account", account)
                                .add("amount", amount)
                                .build()));
    }

    JsonObject sendBulk(JsonObject bulk) {
        HttpResponse<String> response = post("/ledger/api/test-credits/bulk", bulk);
        expect(200, response);
        return parse(response.body()).asJsonObject();
    }

    /** Stops the harness's batched receivers and starts {@code receivers} in their place; 0 pauses them. */
    void runBatchedReceivers(int receivers, int maxMessages) {
        expect(
                204,
                post(
                        "/ledger/api/test-credits/batched-receivers",
                        Json.createObjectBuilder()
                                .add("receivers", receivers)
                                .add("maxMessages", maxMessages)
                                .build()));
    }

    /**
     * Sends a bulk order as {@link #sendBulk} does, but answers empty when the server could not send it
     * (it answered 5xx, or not at all), for a caller that sends it again.
     */
    Optional<JsonObject> trySendBulk(JsonObject bulk) {
        HttpResponse<String> response;
        try {
            response = post("/ledger/api/test-credits/bulk", bulk);
        } catch (IllegalStateException noAnswer) {
            System.out.println("bulk order not sent: " + noAnswer.getMessage());
            return Optional.empty();
        }
        if (response.statusCode() >= 500) {
            System.out.println("bulk order not sent: " + response.statusCode() + " " + response.body());
            return Optional.empty();
        }
        expect(200, response);
        return Optional.of(parse(response.body()).asJsonObject());
    }

    /**
     * Arms a crash: the next delivery or purge that reaches the protocol step halts the server, which
     * may be before the server has answered.
     */
    void armCrash(String step) {
        try {
            expect(
                    202,
                    post(
                            "/ledger/api/faults/crash",
                            Json.createObjectBuilder().add("step", step).build()));
        } catch (IllegalStateException haltedBeforeAnswering) {
            // the crash it asked for
        }
    }

    /** Sends a message as given, through the sample's test endpoint: {@code messageId} null for none. */
    void sendRaw(String messageId, String type, String body) {
        var raw = Json.createObjectBuilder().add("type", type).add("body", body);
        if (messageId != null) {
            raw.add("messageId", messageId);
        }
        sendRaw(raw.build());
    }

    /** Records a consumer name in the engine's table as another queue's, through the sample's fault injection. */
    void recordForeignConsumer(String consumer, String queue) {
        expect(
                204,
                post(
                        "/ledger/api/faults/foreign-consumer",
                        Json.createObjectBuilder()
                                .add("consumer", consumer)
                                .add("queue", queue)
                                .build()));
    }

    /**
     * The consumers whose count of acknowledged IDs, as the purge keeps it, differs from the IDs the
     * table holds (or is not kept while there are such IDs), each with both figures; empty when every
     * kept count holds.
     */
    List<String> acknowledgedCountsThatDiffer() {
        HttpResponse<String> response = get("/ledger/api/faults/acknowledged-counts", CLERK);
        expect(200, response);
        return parse(response.body()).asJsonArray().stream()
                .map(JsonValue::asJsonObject)
                .filter(count -> count.get("kept") instanceof JsonNumber kept
                        ? kept.longValue() != count.getJsonNumber("counted").longValue()
                        : count.getJsonNumber("counted").longValue() > 0)
                .map(JsonObject::toString)
                .toList();
    }

    /** Makes the server's purge deletions fail (held) or lets them go on again. */
    void holdPurgeDeletions(boolean held) {
        URI uri = URI.create(baseUrl + "/ledger/api/faults/purge-deletions-held");
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).header("Authorization", CLERK).header("Content-Type", "application/json");
        expect(204, send((held ? request.POST(HttpRequest.BodyPublishers.noBody()) : request.DELETE()).build()));
    }

    /** Pauses the deliveries of a message-driven bean of the server (by its EJB name), or resumes them. */
    void pauseConsumer(String bean, boolean paused) {
        URI uri = URI.create(baseUrl + "/ledger/api/faults/paused-consumers/" + encoded(bean));
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).header("Authorization", CLERK).header("Content-Type", "application/json");
        expect(204, send((paused ? request.POST(HttpRequest.BodyPublishers.noBody()) : request.DELETE()).build()));
    }

    /** Forgets the destination recorded for a consumer. */
    void forgetConsumer(String consumer) {
        expect(
                204,
                send(HttpRequest.newBuilder(URI.create(
                                baseUrl + "/ledger/api/faults/foreign-consumer?consumer=" + encoded(consumer)))
                        .header("Authorization", CLERK)
                        .DELETE()
                        .build()));
    }

    /** The destination the console shows for a consumer; null before the database records one. */
    String destinationOf(String consumer) {
        HttpResponse<String> response = get("/exactly-once/api/consumers", ADMIN);
        expect(200, response);
        return parse(response.body()).asJsonArray().stream()
                .map(JsonValue::asJsonObject)
                .filter(each -> consumer.equals(each.getString("consumer")))
                .findFirst()
                .map(each -> each.getString("destination", null))
                .orElse(null);
    }

    /** Sends a message as the sample's test endpoint takes it. */
    void sendRaw(JsonObject raw) {
        expect(202, postOrder("/ledger/api/test-messages", raw));
    }

    /** The newest parked messages of the sample's consumer. */
    List<JsonObject> parked() {
        return parked(CONSUMER);
    }

    /** A consumer's parked messages, without bodies. */
    List<JsonObject> parked(String consumer) {
        HttpResponse<String> response =
                get("/exactly-once/api/parked?consumer=" + encoded(consumer) + "&size=500", ADMIN);
        expect(200, response);
        return parse(response.body()).asJsonArray().stream()
                .map(JsonValue::asJsonObject)
                .toList();
    }

    /** One parked message, whole: body, headers and properties. */
    JsonObject parkedMessage(long id) {
        HttpResponse<String> response = get("/exactly-once/api/parked/" + id, ADMIN);
        expect(200, response);
        return parse(response.body()).asJsonObject();
    }

    /** Replays or discards a parked message as the given user; the answer's status code. */
    int changeParked(String method, String path, String user) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/exactly-once/api/parked/" + path))
                .header("Authorization", basic(user))
                .header("X-Requested-By", "it")
                .method(method, HttpRequest.BodyPublishers.noBody());
        return send(request.build()).statusCode();
    }

    /**
     * A request as a browser or a script would make it.
     *
     * @param user a demo user, or null to send no credentials
     * @param csrfHeader whether to send the header every change needs
     */
    HttpResponse<String> call(String method, String path, String user, boolean csrfHeader) {
        return send(request(method, path, user, csrfHeader).build());
    }

    /** A request as {@link #call} makes it, with one more header. */
    HttpResponse<String> callWithHeader(String method, String path, String user, String header, String value) {
        return send(request(method, path, user, true).header(header, value).build());
    }

    private HttpRequest.Builder request(String method, String path, String user, boolean csrfHeader) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (user != null) {
            request.header("Authorization", basic(user));
        }
        if (csrfHeader) {
            request.header("X-Requested-By", "it");
        }
        return request;
    }

    static JsonValue json(HttpResponse<String> response) {
        return parse(response.body());
    }

    /** The account's balance and number of credits. */
    JsonObject account(String account) {
        HttpResponse<String> response = get("/ledger/api/accounts/" + account, CLERK);
        expect(200, response);
        return parse(response.body()).asJsonObject();
    }

    /** How many credits each message ID booked to the account. */
    Map<String, Long> effects(String account) {
        HttpResponse<String> response = get("/ledger/api/accounts/" + account + "/effects", CLERK);
        expect(200, response);
        Map<String, Long> effects = new HashMap<>();
        parse(response.body()).asJsonObject().forEach((id, count) -> effects.put(id, ((JsonNumber) count).longValue()));
        return effects;
    }

    /** The console's report of the server's last purge run, or null before the first. */
    JsonObject lastPurge() {
        JsonObject consumer = consumer();
        return consumer == null || consumer.isNull("lastPurge") ? null : consumer.getJsonObject("lastPurge");
    }

    /** The consumer's unconfirmed IDs, as the server's last purge counted them; -1 before its first count. */
    long unconfirmedIds() {
        JsonObject consumer = consumer();
        return consumer != null && consumer.get("idTable") instanceof JsonObject idTable
                ? idTable.getJsonNumber("unconfirmed").longValue()
                : -1;
    }

    long balance(String account) {
        return account(account).getJsonNumber("balance").longValue();
    }

    /** How often the consumer has seen the outcome since the server started. */
    long deliveries(String outcome) {
        return deliveries(CONSUMER, outcome);
    }

    /** How often the named consumer has seen the outcome since the server started. */
    long deliveries(String consumerName, String outcome) {
        JsonObject consumer = consumer(consumerName);
        return consumer == null
                ? 0
                : consumer.getJsonObject("deliveries").getJsonNumber(outcome).longValue();
    }

    /** The console's figures of the sample's consumer; null before its first delivery. */
    private JsonObject consumer() {
        return consumer(CONSUMER);
    }

    /** The console's status of a consumer, or null when the server knows no such consumer. */
    JsonObject consumer(String name) {
        return consumer(name, "admin");
    }

    /** The console's status of a consumer as the user sees it, or null when the server knows no such consumer. */
    JsonObject consumer(String name, String user) {
        HttpResponse<String> response = get("/exactly-once/api/consumers", basic(user));
        expect(200, response);
        for (JsonValue consumer : parse(response.body()).asJsonArray()) {
            if (name.equals(consumer.asJsonObject().getString("consumer"))) {
                return consumer.asJsonObject();
            }
        }
        return null;
    }

    /** The consumer's processed-ID row for a message ID, if the table has one. */
    Optional<JsonObject> processed(String messageId) {
        return processed(CONSUMER, messageId);
    }

    /** A consumer's processed-ID row for a message ID, if the table has one. */
    Optional<JsonObject> processed(String consumer, String messageId) {
        HttpResponse<String> response = get(
                "/exactly-once/api/processed?consumer=" + encoded(consumer) + "&messageId=" + encoded(messageId),
                ADMIN);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        expect(200, response);
        return Optional.of(parse(response.body()).asJsonObject());
    }

    /** Runs a purge now, as an admin; returns its report. */
    JsonObject purgeNow() {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl + "/exactly-once/api/purge"))
                .header("Authorization", ADMIN)
                .header("X-Requested-By", "it")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        expect(200, response);
        return parse(response.body()).asJsonObject();
    }

    /**
     * The consumer's IDs in the processed-ID table, unconfirmed and acknowledged, as the server's last
     * purge run counted them; {@code -1} before the first run.
     */
    long tableSize() {
        JsonObject consumer = consumer();
        if (consumer == null) {
            return 0;
        }
        if (!(consumer.get("idTable") instanceof JsonObject idTable)) {
            return -1; // JSON-B leaves the field out while it is null
        }
        return idTable.getJsonNumber("unconfirmed").longValue()
                + idTable.getJsonNumber("acknowledged").longValue();
    }

    long duplicates() {
        return duplicates(CONSUMER);
    }

    /** The named consumer's duplicates since the server started, whichever way it found them. */
    long duplicates(String consumerName) {
        return deliveries(consumerName, "duplicate_already_committed")
                + deliveries(consumerName, "duplicate_lost_race");
    }

    /** Deliveries this server's consumer settled: booked, or dropped as a duplicate. */
    long resolved() {
        return deliveries("processed") + duplicates();
    }

    List<String> deadLetterIds() {
        HttpResponse<String> response = get("/ledger/api/dead-letters", CLERK);
        expect(200, response);
        return parse(response.body()).asJsonArray().stream()
                .map(letter -> letter.asJsonObject().getString("messageId", ""))
                .toList();
    }

    /** Puts a copy of a credit with this ID on the exception destination, as the broker does after its last delivery. */
    void putDeadLetter(String messageId) {
        expect(204, call("POST", "/ledger/api/dead-letters/" + encoded(messageId), "clerk", false));
    }

    /** Takes the messages with this ID off the exception destination, as an operator does. */
    void takeDeadLetter(String messageId) {
        expect(204, call("DELETE", "/ledger/api/dead-letters/" + encoded(messageId), "clerk", false));
    }

    /** The engine's readiness, as the console's API reports it: its status code and its checks. */
    HttpResponse<String> readiness() {
        return call("GET", "/exactly-once/api/health/ready", "viewer", false);
    }

    /** Whether the server answers HTTP at all, whatever it says. */
    boolean answers() {
        try {
            get("/ledger/api/accounts/ping", CLERK);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Whether the sample application answers a balance request. */
    boolean isUp() {
        try {
            return get("/ledger/api/accounts/ping", CLERK).statusCode() == 200;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Posts JSON to a path of the server, as the clerk. */
    HttpResponse<String> post(String path, JsonObject body) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .header("Authorization", CLERK)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build());
    }

    /** Posts a body as it is, declared JSON, to a path of the server, as the clerk. */
    HttpResponse<String> postText(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .header("Authorization", CLERK)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    /**
     * Posts an order as a producer sends it: again while the server answers 503, the broker having not
     * taken it (a pooled connection to a broker that restarted fails once), for up to {@link
     * #SEND_AGAIN_FOR}. Sending again is what the product makes safe.
     */
    private HttpResponse<String> postOrder(String path, JsonObject order) {
        Instant giveUp = Instant.now().plus(SEND_AGAIN_FOR);
        HttpResponse<String> response = post(path, order);
        while (response.statusCode() == 503 && Instant.now().isBefore(giveUp)) {
            System.out.println(path + " answered 503, sent again: " + response.body());
            Await.pause(Duration.ofSeconds(
                    Long.parseLong(response.headers().firstValue("Retry-After").orElse("1"))));
            response = post(path, order);
        }
        return response;
    }

    private HttpResponse<String> get(String path, String authorization) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        for (int attempt = 1; ; attempt++) {
            try {
                return http.send(
                        HttpRequest.newBuilder(request, (name, value) -> true)
                                .timeout(Duration.ofMinutes(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                // a connection closed before any answer ("header parser received no bytes": one kept open
                // to a server that has restarted since) says nothing of what the server would answer: a GET
                // goes again, on another connection, as a probe retries (a server that is down fails every
                // attempt)
                if (!request.method().equals("GET")
                        || e instanceof HttpTimeoutException
                        || attempt == STALE_CONNECTIONS_TRIED) {
                    throw new IllegalStateException(request.uri() + " failed: " + e, e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new AssertionError(
                    response.request().uri() + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static JsonValue parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
