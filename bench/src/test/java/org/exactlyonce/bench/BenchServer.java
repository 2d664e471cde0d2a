package org.exactlyonce.bench;

import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A server under test, Open Liberty or WildFly: its HTTP API, its message endpoints, and its consumers' concurrency. */
final class BenchServer {

    /** The message-driven beans' endpoints, {@code application#module#bean}, as Liberty's {@code server pause --target} names them. */
    static final String EXACTLY_ONCE = "exactly-once-sample#ledger.war#LedgerConsumer";

    static final String AT_LEAST_ONCE = "exactly-once-sample#ledger.war#AtLeastOnceConsumer";
    static final String XA = "exactly-once-bench#exactly-once-bench.war#XaLedgerConsumer";
    /** The consumer that books each credit and sends its receipt through the outbox. */
    static final String RECEIPTING = "exactly-once-sample#ledger.war#ReceiptingLedgerConsumer";

    static final List<String> ENDPOINTS = List.of(EXACTLY_ONCE, AT_LEAST_ONCE, XA, RECEIPTING);

    /** The exactly-once consumer's name, as the console lists it. */
    private static final String CONSUMER = "org.exactlyonce.sample.ledger.LedgerConsumer";

    private static final String ADMIN = basic("admin");
    /** The sample's API is the demo clerk's. */
    private static final String CLERK = basic("clerk");

    private static final Duration START = Duration.ofMinutes(3);

    private final String name;
    private final String baseUrl;
    private final ServerControl control;

    /**
     * @param name how the benchmark's log names the server
     * @param baseUrl the address of the server's HTTP API
     */
    BenchServer(String name, String baseUrl, ServerControl control) {
        this.name = name;
        this.baseUrl = baseUrl;
        this.control = control;
    }

    String name() {
        return name;
    }

    /**
     * Queues credits of 1 to the account for the exactly-once consumer, through the sample's API, or for
     * the at-least-once consumer, through the test harness's (the part scale's servers have only the
     * sample's queues).
     */
    void queueCredits(String account, int count, boolean atLeastOnce) {
        String credits = "\"account\":\"%s\",\"count\":%d,\"amount\":1".formatted(account, count);
        if (atLeastOnce) {
            expect(200, post("/ledger/api/test-credits/bulk", "{" + credits + ",\"atLeastOnce\":true}", CLERK));
        } else {
            expect(200, post("/ledger/api/credits/bulk", "{" + credits + "}", CLERK));
        }
    }

    /** Queues credits of 1 to the account for the harness's batched receivers. */
    void queueBatchedCredits(String account, int count) {
        String bulk = "{\"account\":\"%s\",\"count\":%d,\"amount\":1,\"batched\":true}".formatted(account, count);
        expect(200, post("/ledger/api/test-credits/bulk", bulk, CLERK));
    }

    /** Runs {@code receivers} batched receivers in place of those that run, with batches of up to 100; 0 pauses them. */
    void runBatchedReceivers(int receivers) {
        String request = "{\"receivers\":%d,\"maxMessages\":100}".formatted(receivers);
        expect(204, post("/ledger/api/test-credits/batched-receivers", request, CLERK));
    }

    /** Queues credits of 1 to the account for the consumer that sends a receipt of each through the outbox. */
    void queueCreditsWithReceipts(String account, int count) {
        String bulk = "{\"account\":\"%s\",\"count\":%d,\"amount\":1,\"withReceipts\":true}".formatted(account, count);
        expect(200, post("/ledger/api/test-credits/bulk", bulk, CLERK));
    }

    /** Queues credits of 1 to the account for the XA consumer. */
    void queueXaCredits(String account, int count) {
        expect(200, post("/exactly-once-bench/api/xa-credits?account=" + account + "&count=" + count, "", null));
    }

    /** Sends one credit of 1 to the exactly-once consumer. */
    void sendCredit(String messageId, String account) {
        String order = "{\"messageId\":\"%s\",\"account\":\"%s\",\"amount\":1}".formatted(messageId, account);
        expect(202, post("/ledger/api/credits", order, CLERK));
    }

    /** Sends one credit of 1 to the consumer that sends its receipt through the outbox. */
    void sendCreditWithReceipt(String messageId, String account) {
        String order = "{\"messageId\":\"%s\",\"account\":\"%s\",\"amount\":1}".formatted(messageId, account);
        expect(202, post("/ledger/api/credits?receipt=true", order, CLERK));
    }

    /** Runs a purge now, as the demo admin; returns its report as JSON. */
    String purgeNow() {
        return purgeNow(Duration.ofMinutes(10));
    }

    /** Runs a purge now, waiting for its report at most as long as given. */
    String purgeNow(Duration timeout) {
        HttpResponse<String> response = post("/exactly-once/api/purge", "", ADMIN, timeout);
        expect(200, response);
        return response.body();
    }

    void pause(String endpoint) {
        control.pause(endpoint);
    }

    void resume(String endpoint) {
        control.resume(endpoint);
    }

    /** Sets a MicroProfile Config key of the server from its next start on. */
    void setting(String key, String value) throws IOException {
        control.setting(key, value);
    }

    /** Restarts the server with each consumer taking up to {@code consumers} messages at a time. */
    void restartWithConsumers(int consumers) throws IOException, InterruptedException {
        control.consumers(consumers);
        stop();
        start();
    }

    /** Starts the server and waits until it is ready. */
    void start() throws InterruptedException {
        control.start();
        long deadline = System.nanoTime() + START.toNanos();
        while (!ready()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server did not become ready within " + START);
            }
            Thread.sleep(500);
        }
    }

    void stop() {
        control.stop();
    }

    /** A part of the server process's command line that no other process's has. */
    String processMarker() {
        return control.processMarker();
    }

    /**
     * The server's heap in use right after a full collection, in MiB, asked of its JVM with {@code jcmd}
     * ({@code GC.run}, then {@code GC.heap_info}).
     */
    double heapMbAfterFullGc() throws IOException, InterruptedException {
        long pid = control.processes()
                .filter(process -> process.info()
                        .command()
                        .filter(command -> command.endsWith("/java"))
                        .isPresent())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no process with " + processMarker()))
                .pid();
        jcmd(pid, "GC.run");
        Matcher used = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K").matcher(jcmd(pid, "GC.heap_info"));
        if (!used.find()) {
            throw new IllegalStateException("jcmd GC.heap_info of process " + pid + " names no heap in use");
        }
        return Long.parseLong(used.group(1)) / 1024.0;
    }

    private static String jcmd(long pid, String command) {
        return Commands.run(
                new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        String.valueOf(pid),
                        command),
                "jcmd " + command);
    }

    /** How many messages the exactly-once consumer processed on this server since it started, as the console counts. */
    long processed() {
        HttpResponse<String> response = get("/exactly-once/api/consumers", ADMIN);
        expect(200, response);
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readArray().stream()
                    .map(JsonValue::asJsonObject)
                    .filter(consumer -> consumer.getString("consumer").equals(CONSUMER))
                    .mapToLong(consumer -> consumer.getJsonObject("deliveries")
                            .getJsonNumber("processed")
                            .longValue())
                    .sum();
        }
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
    }

    private boolean ready() {
        try {
            HttpRequest request = HttpRequest.newBuilder(control.readiness()).build();
            return control.http()
                            .send(request, HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException | IllegalStateException notYet) {
            return false; // not listening, or no certificate yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private HttpResponse<String> get(String path, String authorization) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", authorization)
                .timeout(Duration.ofMinutes(1))
                .GET()
                .build());
    }

    private HttpResponse<String> post(String path, String body, String authorization) {
        return post(path, body, authorization, Duration.ofMinutes(10));
    }

    private HttpResponse<String> post(String path, String body, String authorization, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .header("X-Requested-By", "bench")
                .timeout(timeout)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request.build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return control.http().send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + request.uri(), e);
        }
    }

    private static void expect(int status, HttpResponse<String> response) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(
                    response.request().uri() + " answered " + response.statusCode() + ": " + response.body());
        }
    }
}
