package org.exactlyonce.bench;

import static java.util.stream.Collectors.joining;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What exactly-once costs, measured side by side on one server: the same number of queued messages
 * drained by the engine's consumer, by the same consumer without the ID table, by an XA consumer, and
 * the same SQL driven straight by JDBC, in turns (A B C D A B C D …) so that the machine's noise hits
 * all alike; then the ID table's size and a purge under load. Prints a Markdown table and one
 * {@code bench: name=value} line per figure.
 */
public final class Benchmark {

    private static final int MESSAGES = Integer.getInteger("bench.messages", 20_000);
    private static final int REPEATS = Integer.getInteger("bench.repeats", 3);
    private static final int TABLE_FILL = Integer.getInteger("bench.table-ids", 10_000_000);
    /**
     * Messages on the queue while the part {@code purge10m} purges and the server's heap is read. Liberty's
     * messaging engine holds 50,000 on a queue by default (a send past them fails with CWSIA0067E,
     * SIMPLimitExceededException): the bench server's exactly-once queue holds 200,000.
     */
    private static final int QUEUED = Integer.getInteger("bench.queued", 100_000);

    private static final int PURGE_IDS = Integer.getInteger("bench.purge-ids", 1_000_000);
    private static final int LOAD_RATE = Integer.getInteger("bench.load-rate", 100);
    private static final Duration LOAD = Duration.ofSeconds(Integer.getInteger("bench.load-seconds", 40));
    private static final Duration DRAIN = Duration.ofMinutes(30);
    /** The most unrecorded rounds of the part {@code throughput}; warm-up ends earlier once it runs steady. */
    private static final int WARM_UP_ROUNDS = Integer.getInteger("bench.warm-up-rounds", 4);
    /** How far a drain's speed may move from one warm-up round to the next in a server that runs steady. */
    private static final double STEADY = 0.10;
    /** The numbers of concurrent consumers of the part {@code throughput}. */
    private static final List<Integer> CONCURRENCY = Stream.of(
                    System.getProperty("bench.consumers", "1,8").split(","))
            .map(Integer::valueOf)
            .toList();

    private static final boolean ON_WILDFLY = System.getProperty("bench.wildfly.home") != null;
    /**
     * Which parts run: {@code throughput}, {@code crashguard}, {@code outbox}, {@code table}, {@code purge}, {@code purge10m},
     * {@code scale}; all by default on Open Liberty, {@code throughput} alone on WildFly.
     */
    private static final List<String> PARTS = List.of(System.getProperty(
                    "bench.parts",
                    ON_WILDFLY ? "throughput" : "throughput,crashguard,outbox,table,purge,purge10m,scale")
            .split(","));
    /** The Liberty server's folder, {@code usr/servers/bench}, beside the part scale's. */
    private static final Path LIBERTY_SERVER = Path.of(System.getProperty("bench.server", "."));
    /** The servers of the part {@code scale}, {@code name:HTTP port} each, on one standalone Artemis. */
    private static final List<String> SCALE_SERVERS = List.of(
            System.getProperty("bench.scale-servers", "bench-scale-1:20443").split(","));
    /** Their broker's instance directory, by which the CPU meter tells its process. */
    private static final String BROKER_INSTANCE = System.getProperty("bench.artemis.instance", "");

    /** How the CPU meter names an application server's processes. */
    private static final String SERVER = "server ";

    private final BenchServer server;
    private final BenchDatabase database;
    private final CpuMeter cpu;
    private final Map<String, List<Double>> figures = new LinkedHashMap<>();
    /** The {@code bench:} lines printed so far: each once, when the part that made it ends. */
    private final Set<String> printed = new HashSet<>();

    private final List<String> failedParts = new ArrayList<>();

    private Benchmark(BenchServer server, BenchDatabase database) {
        this.server = server;
        this.database = database;
        this.cpu = new CpuMeter(List.of(
                CpuMeter.Part.commandContaining("server", server.processMarker()),
                CpuMeter.Part.commandContaining("database", "postgres"),
                CpuMeter.Part.process("benchmark", ProcessHandle.current().pid())));
    }

    public static void main(String[] args) throws Exception {
        BenchServer server = server();
        try {
            new Benchmark(
                            server,
                            new BenchDatabase(
                                    System.getProperty("bench.jdbc-url", "jdbc:postgresql://127.0.0.1:5432/bench")))
                    .run();
        } finally {
            if (ON_WILDFLY) { // the benchmark started it; the Liberty plugin stops its own server
                server.stop();
            }
        }
    }

    /** The Liberty server {@code bench.server}, or the WildFly installation {@code bench.wildfly.home} when given. */
    private static BenchServer server() {
        if (!ON_WILDFLY) {
            String baseUrl = System.getProperty("bench.base-url", "https://localhost:19943");
            return new BenchServer(
                    LIBERTY_SERVER.getFileName().toString(), baseUrl, new LibertyControl(LIBERTY_SERVER, baseUrl));
        }
        if (PARTS.contains("scale")) {
            throw new IllegalArgumentException("the part scale runs on Open Liberty's servers only; on WildFly, name"
                    + " others with -Dbench.parts (throughput, outbox, table, purge, purge10m)");
        }
        WildFlyControl wildfly = new WildFlyControl(
                Path.of(System.getProperty("bench.wildfly.home")),
                Path.of(System.getProperty("bench.wildfly.base")),
                Integer.getInteger("bench.wildfly.port-offset", 0),
                Stream.of(System.getProperty("bench.wildfly.settings", "").split(" +"))
                        .filter(setting -> !setting.isEmpty())
                        .toList());
        return new BenchServer("wildfly", wildfly.baseUrl(), wildfly);
    }

    private void run() throws Exception {
        log(
                "server %s: %d messages per drain, %d repeats, on %d cores",
                server.name(), MESSAGES, REPEATS, Runtime.getRuntime().availableProcessors());
        part("throughput", () -> {
            for (int consumers : CONCURRENCY) {
                throughput(consumers);
            }
        });
        part("crashguard", this::crashGuard);
        part("outbox", this::outbox);
        part("table", this::tableSize);
        part("purge", this::purgeUnderLoad);
        part("purge10m", this::purgeOfTenMillion);
        part("scale", this::scale);
        report();
        if (!failedParts.isEmpty()) {
            throw new IllegalStateException("parts failed: " + failedParts + "; the others' figures stand above");
        }
    }

    /**
     * Runs a part when it is asked for, then prints the {@code bench:} lines it made: a part that fails
     * is reported, and neither it nor a later one takes the figures printed before with it.
     */
    private void part(String name, Part part) {
        if (!PARTS.contains(name)) {
            return;
        }
        long started = System.nanoTime();
        try {
            part.run();
            log("part %s done in %d s", name, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        } catch (Exception | AssertionError e) {
            failedParts.add(name);
            log("part %s FAILED after %d s: %s", name, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), e);
            e.printStackTrace(System.out);
        }
        benchLines().forEach((line, value) -> {
            if (printed.add(line)) {
                System.out.println("bench: " + line + "=" + value);
            }
        });
    }

    @FunctionalInterface
    private interface Part {
        void run() throws Exception;
    }

    /**
     * Each consumer and JDBC in turns at the given concurrency, after unrecorded rounds that warm the
     * server up until it runs steady. Right after a restart it runs cold (measured: the first drain at 8
     * was 2 to 4 times slower), and one round is not enough for the consumer with the most code to
     * compile: after a single round, exactly-once's first recorded drain at 8 ran at half the speed of
     * its second (859 and 1756 msgs/s, 2026-12-06) while at-least-once's moved by a tenth.
     */
    private void throughput(int consumers) throws Exception {
        server.restartWithConsumers(consumers);
        BenchServer.ENDPOINTS.forEach(server::pause);
        server.runBatchedReceivers(0);
        warmUp(consumers);
        for (int repeat = 0; repeat < REPEATS; repeat++) {
            throughputRound(consumers, false);
        }
    }

    /**
     * Unrecorded rounds until every drain ran within {@link #STEADY} of its speed in the round before,
     * at most {@link #WARM_UP_ROUNDS}.
     */
    private void warmUp(int consumers) throws Exception {
        Map<String, Double> before = throughputRound(consumers, true);
        for (int round = 2; round <= WARM_UP_ROUNDS; round++) {
            Map<String, Double> now = throughputRound(consumers, true);
            if (steady(before, now)) {
                log("warm at %d consumers after %d rounds", consumers, round);
                return;
            }
            before = now;
        }
        log("not steady at %d consumers after %d warm-up rounds: the figures vary more", consumers, WARM_UP_ROUNDS);
    }

    private static boolean steady(Map<String, Double> before, Map<String, Double> now) {
        return now.entrySet().stream()
                .allMatch(each -> Math.abs(each.getValue() / before.get(each.getKey()) - 1) <= STEADY);
    }

    /** One drain of each consumer and of JDBC; answers each one's speed. */
    private Map<String, Double> throughputRound(int consumers, boolean warmUp) throws Exception {
        Map<String, Double> speeds = new LinkedHashMap<>();
        speeds.put("eo", recordDrain(warmUp, "eo_c" + consumers, drain(BenchServer.EXACTLY_ONCE, consumers)));
        speeds.put("batched", recordDrain(warmUp, "batched_c" + consumers, drainBatched(consumers)));
        speeds.put("alo", recordDrain(warmUp, "alo_c" + consumers, drain(BenchServer.AT_LEAST_ONCE, consumers)));
        speeds.put("xa", recordDrain(warmUp, "xa_c" + consumers, drain(BenchServer.XA, consumers)));
        speeds.put("db", recordDrain(warmUp, "db_c" + consumers, jdbc(consumers, true)));
        speeds.put("db_domain", recordDrain(warmUp, "db_domain_c" + consumers, jdbc(consumers, false)));
        return speeds;
    }

    /**
     * What the crash guard costs an ordinary delivery (a slot of its memory-mapped journal written and
     * cleared): the exactly-once drain at 8 with the guard off and on, in turns, each after a restart
     * with that setting and unrecorded drains that warm the server up.
     */
    private void crashGuard() throws Exception {
        String setting = "exactlyonce.crash-guard.crashes-before-parking";
        try {
            for (int repeat = 0; repeat < REPEATS; repeat++) {
                for (boolean guarded : List.of(false, true)) {
                    server.setting(setting, guarded ? "3" : "0");
                    server.restartWithConsumers(8);
                    BenchServer.ENDPOINTS.forEach(server::pause);
                    server.runBatchedReceivers(0);
                    warmUpExactlyOnce();
                    recordDrain(
                            false,
                            guarded ? "eo_crash_guard_c8" : "eo_crash_guard_off_c8",
                            drain(BenchServer.EXACTLY_ONCE, 8));
                }
            }
        } finally {
            server.setting(setting, "3");
        }
    }

    /**
     * Unrecorded exactly-once drains at 8 until one runs within {@link #STEADY} of the one before, at
     * most {@link #WARM_UP_ROUNDS} after the first: right after a restart the drains speed up by half
     * and more from one to the next.
     */
    private void warmUpExactlyOnce() throws Exception {
        double before = drain(BenchServer.EXACTLY_ONCE, 8).perSecond();
        for (int round = 1; round <= WARM_UP_ROUNDS; round++) {
            double now = drain(BenchServer.EXACTLY_ONCE, 8).perSecond();
            if (Math.abs(now / before - 1) <= STEADY) {
                return;
            }
            before = now;
        }
    }

    /** How fast a drain went, and the CPU time it cost per message in each part of the setup. */
    private record Drain(double perSecond, Map<String, Double> cpuMsPerMessage) {}

    private double recordDrain(boolean warmUp, String name, Drain drain) {
        record(warmUp, name, drain.perSecond());
        drain.cpuMsPerMessage().forEach((part, ms) -> record(warmUp, name + "_cpu_" + part, ms));
        return drain.perSecond();
    }

    /** Queues the messages with the consumer paused, then measures how fast it drains them. */
    private Drain drain(String endpoint, int consumers) throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        if (endpoint.equals(BenchServer.XA)) {
            server.queueXaCredits(account, MESSAGES);
        } else {
            server.queueCredits(account, MESSAGES, endpoint.equals(BenchServer.AT_LEAST_ONCE));
        }
        server.resume(endpoint);
        CpuMeter.Reading start = cpu.read(); // after the server command, whose JVM is no part of the drain
        BenchDatabase.Bookings booked = awaitBooked(account, MESSAGES, DRAIN);
        Map<String, Double> cpuMs = cpu.msPerUnit(start, cpu.read(), MESSAGES);
        server.pause(endpoint);
        log("%s at %d: %.0f msgs/s; CPU ms per message: %s", endpoint, consumers, booked.perSecond(), formatted(cpuMs));
        return new Drain(booked.perSecond(), cpuMs);
    }

    /** Queues the messages with the batched receivers stopped, then measures how fast {@code receivers} of them drain them. */
    private Drain drainBatched(int receivers) throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        server.queueBatchedCredits(account, MESSAGES);
        server.runBatchedReceivers(receivers);
        CpuMeter.Reading start = cpu.read();
        BenchDatabase.Bookings booked = awaitBooked(account, MESSAGES, DRAIN);
        Map<String, Double> cpuMs = cpu.msPerUnit(start, cpu.read(), MESSAGES);
        server.runBatchedReceivers(0);
        log("batched at %d: %.0f msgs/s; CPU ms per message: %s", receivers, booked.perSecond(), formatted(cpuMs));
        return new Drain(booked.perSecond(), cpuMs);
    }

    /**
     * The database's own limit: the consumer's SQL (ID insert, ledger insert, commit) straight by JDBC;
     * without the ID insert, the at-least-once consumer's SQL, so that the two give what the ID's
     * statement costs the database alone, with no server beside it. The clients keep their connections
     * open until the CPU is read: a database process that ended before the reading would take its CPU
     * time with it.
     */
    private Drain jdbc(int clients, boolean withId) throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        AtomicInteger next = new AtomicInteger();
        CountDownLatch booked = new CountDownLatch(clients);
        CountDownLatch measured = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            CpuMeter.Reading start = cpu.read();
            List<Future<Void>> workers = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                workers.add(pool.submit(() -> {
                    bookStraight(account, withId, next, booked, measured);
                    return null;
                }));
            }
            booked.await();
            Map<String, Double> cpuMs = cpu.msPerUnit(start, cpu.read(), MESSAGES);
            measured.countDown();
            for (Future<Void> worker : workers) {
                worker.get();
            }
            double perSecond = database.bookings(account).perSecond();
            log(
                    "JDBC%s at %d: %.0f transactions/s; CPU ms per transaction: %s",
                    withId ? "" : " without the ID", clients, perSecond, formatted(cpuMs));
            return new Drain(perSecond, cpuMs);
        } finally {
            measured.countDown();
            pool.shutdown();
        }
    }

    private void bookStraight(
            String account, boolean withId, AtomicInteger next, CountDownLatch booked, CountDownLatch measured)
            throws SQLException, InterruptedException {
        try (Connection connection = database.connect();
                PreparedStatement id = connection.prepareStatement( // the engine's: unless the message is parked
                        "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT, JMS_MESSAGE_ID, PAYLOAD_SHA256)"
                                + " SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS"
                                + " (SELECT 1 FROM EO_PARKED_MESSAGE WHERE CONSUMER = ? AND JMS_MESSAGE_ID = ?)");
                PreparedStatement credit = connection.prepareStatement(
                        "INSERT INTO LEDGER_CREDIT (MESSAGE_ID, ACCOUNT, AMOUNT, BOOKED_AT) VALUES (?, ?, ?, ?)")) {
            try {
                connection.setAutoCommit(false);
                for (int n = next.getAndIncrement(); n < MESSAGES; n = next.getAndIncrement()) {
                    String messageId = account + "-" + n;
                    LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
                    if (withId) {
                        id.setString(1, "bench-jdbc");
                        id.setString(2, messageId);
                        id.setObject(3, now);
                        id.setString(4, "ID:" + messageId);
                        id.setString(5, "0".repeat(64));
                        id.setString(6, "bench-jdbc");
                        id.setString(7, "ID:" + messageId);
                        id.executeUpdate();
                    }
                    credit.setString(1, messageId);
                    credit.setString(2, account);
                    credit.setLong(3, 1);
                    credit.setObject(4, now);
                    credit.executeUpdate();
                    connection.commit();
                }
            } finally {
                booked.countDown();
            }
            measured.await();
        }
    }

    /**
     * Consume, book and send, at 8: credits drained through the consumer that books each and sends its
     * receipt through the outbox, until the receipts' consumer has booked every receipt, against the
     * plain exactly-once drain in turns; then, under a steady load, how long each receipt takes after
     * its credit is booked (the commit, the relay's send, the broker, the receipts' consumer).
     */
    private void outbox() throws Exception {
        server.restartWithConsumers(8);
        BenchServer.ENDPOINTS.forEach(server::pause);
        for (int repeat = 0; repeat <= REPEATS; repeat++) {
            boolean warmUp = repeat == 0;
            record(
                    warmUp,
                    "eo_beside_outbox_c8",
                    drain(BenchServer.EXACTLY_ONCE, 8).perSecond());
            record(warmUp, "outbox_chain_c8", drainWithReceipts());
        }
        server.resume(BenchServer.RECEIPTING);
        List<Double> delays = receiptDelays();
        server.pause(BenchServer.RECEIPTING);
        record("outbox_delay_p50_ms", percentile(delays, 50));
        record("outbox_delay_p99_ms", percentile(delays, 99));
    }

    /** Receipts booked per second, from the first to the last, with the credits queued beforehand. */
    private double drainWithReceipts() throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        server.queueCreditsWithReceipts(account, MESSAGES);
        server.resume(BenchServer.RECEIPTING);
        awaitBooked(account, MESSAGES, DRAIN);
        BenchDatabase.Bookings receipts = awaitBooked("receipts-" + account, MESSAGES, DRAIN);
        server.pause(BenchServer.RECEIPTING);
        log("credits with receipts at 8: %.0f receipts/s", receipts.perSecond());
        return receipts.perSecond();
    }

    /** At {@link #LOAD_RATE} credits a second for {@link #LOAD}: each receipt's booking after its credit's, in ms. */
    private List<Double> receiptDelays() throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        int total = (int) (LOAD.toSeconds() * LOAD_RATE);
        long start = System.nanoTime();
        for (int n = 0; n < total; n++) {
            long wait = start + n * 1_000_000_000L / LOAD_RATE - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            server.sendCreditWithReceipt(account + "-" + n, account);
        }
        awaitBooked("receipts-" + account, total, DRAIN);
        Map<String, Instant> credits = database.bookingTimes(account);
        Map<String, Instant> receipts = database.bookingTimes("receipts-" + account);
        List<Double> delays = new ArrayList<>();
        credits.forEach((id, at) ->
                delays.add((double) Duration.between(at, receipts.get(id)).toMillis()));
        log(
                "receipt after its credit, %d msgs/s: p50 %.0f ms, p99 %.0f ms",
                LOAD_RATE, percentile(delays, 50), percentile(delays, 99));
        return delays;
    }

    private static String formatted(Map<String, Double> cpuMs) {
        StringBuilder text = new StringBuilder();
        cpuMs.forEach((part, ms) -> text.append(" %s %.2f".formatted(part, ms)));
        return text.toString().trim();
    }

    /**
     * The exactly-once consumer at 8, with 10 million IDs in its table against an empty one. Filling
     * takes minutes, so the empty runs come first and the full ones after one fill.
     */
    private void tableSize() throws Exception {
        server.restartWithConsumers(8);
        BenchServer.ENDPOINTS.forEach(server::pause);
        for (int repeat = 0; repeat <= REPEATS; repeat++) {
            record(
                    repeat == 0,
                    "eo_empty_table",
                    drain(BenchServer.EXACTLY_ONCE, 8).perSecond());
        }
        database.emptyProcessedIds();
        Instant start = Instant.now();
        database.addProcessedIds(TABLE_FILL, "filler-", start);
        log("%d IDs added in %s", TABLE_FILL, Duration.between(start, Instant.now()));
        for (int repeat = 0; repeat <= REPEATS; repeat++) { // the first reads the new index into memory
            record(repeat == 0, "eo_full_table", drainOnto(BenchServer.EXACTLY_ONCE));
        }
        database.emptyProcessedIds();
    }

    /** As {@link #drain}, but onto the processed-ID table as it is. */
    private double drainOnto(String endpoint) throws Exception {
        String account = "bench-" + UUID.randomUUID();
        server.queueCredits(account, MESSAGES, false);
        server.resume(endpoint);
        BenchDatabase.Bookings booked = awaitBooked(account, MESSAGES, DRAIN);
        server.pause(endpoint);
        log("%s at 8 onto %d IDs: %.0f msgs/s", endpoint, TABLE_FILL, booked.perSecond());
        return booked.perSecond();
    }

    /** Send-to-booking latency under a steady load, while a purge deletes IDs, against the same load without. */
    private void purgeUnderLoad() throws Exception {
        server.restartWithConsumers(8);
        BenchServer.ENDPOINTS.forEach(server::pause);
        drain(BenchServer.EXACTLY_ONCE, 8); // warms the server up, unrecorded
        server.resume(BenchServer.EXACTLY_ONCE);
        for (int repeat = 1; repeat <= Math.max(1, REPEATS - 1); repeat++) {
            database.emptyProcessedIds();
            recordLatencies("none", steadyLoad(null));
            database.emptyProcessedIds();
            database.addProcessedIds(PURGE_IDS, "expired-", Instant.now().minus(Duration.ofDays(2)));
            recordLatencies("purge", steadyLoad(() -> log("purge during load: %s", server.purgeNow())));
        }
    }

    /**
     * Sends {@link #LOAD_RATE} credits a second for {@link #LOAD}, starting the side job two seconds
     * in; returns each credit's time from send to booking, in milliseconds.
     */
    private List<Double> steadyLoad(Runnable sideJob) throws Exception {
        String account = "bench-" + UUID.randomUUID();
        Map<String, Instant> sent = new LinkedHashMap<>();
        int total = (int) (LOAD.toSeconds() * LOAD_RATE);
        long start = System.nanoTime();
        CompletableFuture<Void> side = CompletableFuture.completedFuture(null);
        for (int n = 0; n < total; n++) {
            long due = start + n * 1_000_000_000L / LOAD_RATE;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            if (sideJob != null && n == 2 * LOAD_RATE) {
                side = CompletableFuture.runAsync(sideJob);
            }
            String messageId = account + "-" + n;
            sent.put(messageId, Instant.now());
            server.sendCredit(messageId, account);
        }
        awaitBooked(account, total, DRAIN);
        side.get();
        Map<String, Instant> booked = database.bookingTimes(account);
        List<Double> latencies = new ArrayList<>();
        sent.forEach((id, at) ->
                latencies.add((double) Duration.between(at, booked.get(id)).toMillis()));
        return latencies;
    }

    /**
     * One purge run over {@link #TABLE_FILL} IDs, every hundredth unconfirmed and the rest acknowledged
     * past the dedup window: how long it takes to confirm and delete them, and the longest time one of
     * its batches held deliveries from beginning. One run: filling the table takes minutes. The server's
     * heap after a full collection, idle (an empty table, an empty queue), with the IDs in the table and
     * {@link #QUEUED} messages on the queue, and after the purge: the engine keeps no state per message
     * or per ID.
     */
    private void purgeOfTenMillion() throws Exception {
        server.restartWithConsumers(8);
        BenchServer.ENDPOINTS.forEach(server::pause);
        drain(BenchServer.EXACTLY_ONCE, 8); // a delivery records the consumer's destination and its broker
        String broker = database.brokerOfProcessedIds();
        database.emptyProcessedIds();
        record("heap_mb_idle", server.heapMbAfterFullGc());
        Instant start = Instant.now();
        database.addPurgeableIds(TABLE_FILL, broker);
        log("%d IDs added in %s", TABLE_FILL, Duration.between(start, Instant.now()));
        String waiting = "bench-" + UUID.randomUUID();
        for (int queued = 0; queued < QUEUED; queued += MESSAGES) { // on the queue while the purge looks at it
            server.queueCredits(waiting, Math.min(MESSAGES, QUEUED - queued), false);
        }
        record("heap_mb_loaded", server.heapMbAfterFullGc());
        JsonObject report;
        try (JsonReader reader = Json.createReader(new StringReader(server.purgeNow(Duration.ofHours(2))))) {
            report = reader.readObject();
        }
        log("purge of %d IDs: %s", TABLE_FILL, report);
        record("purge10m_seconds", Duration.parse(report.getString("took")).toMillis() / 1000.0);
        record("purge_lock_max_ms", (double)
                Duration.parse(report.getString("longestLockHold")).toMillis());
        record("purge10m_deleted", report.getInt("deleted"));
        record("purge10m_confirmed", report.getInt("confirmed"));
        record("heap_mb_after_purge", server.heapMbAfterFullGc());
        server.resume(BenchServer.EXACTLY_ONCE);
        awaitBooked(waiting, QUEUED, DRAIN);
        server.pause(BenchServer.EXACTLY_ONCE);
        database.emptyProcessedIds();
    }

    /**
     * The exactly-once consumer on 1, 2, … servers sharing one queue of a standalone Artemis broker and one
     * database, in turns (1 2 3 1 2 3 …) after an unrecorded drain by each server alone: each turn queues
     * the messages with every server's consumer paused, resumes the first n, and measures how fast they
     * drain the queue, each server's share, and where the machine's CPU went.
     */
    private void scale() throws Exception {
        Path servers = LIBERTY_SERVER.getParent();
        List<BenchServer> scaleServers = SCALE_SERVERS.stream()
                .map(each -> each.split(":"))
                .map(each -> new BenchServer(
                        each[0],
                        "https://localhost:" + each[1],
                        new LibertyControl(servers.resolve(each[0]), "https://localhost:" + each[1])))
                .toList();
        List<CpuMeter.Part> parts = new ArrayList<>();
        parts.add(CpuMeter.Part.commandContaining("broker", "-Dartemis.instance=" + BROKER_INSTANCE));
        scaleServers.forEach(
                each -> parts.add(CpuMeter.Part.commandContaining(SERVER + each.name(), each.processMarker())));
        parts.add(CpuMeter.Part.process("benchmark", ProcessHandle.current().pid()));
        parts.add(CpuMeter.Part.commandContaining("postgresql", "postgres"));
        CpuMeter cpu = new CpuMeter(parts);
        try {
            for (BenchServer each : scaleServers) {
                each.start();
                each.pause(BenchServer.EXACTLY_ONCE);
            }
            for (BenchServer each : scaleServers) { // unrecorded: a server that drained less would still run colder
                drainOn(List.of(each), cpu, true);
            }
            for (int repeat = 1; repeat <= REPEATS; repeat++) {
                for (int n = 1; n <= scaleServers.size(); n++) {
                    drainOn(scaleServers.subList(0, n), cpu, false);
                }
            }
        } finally {
            scaleServers.forEach(BenchServer::stop);
        }
    }

    /** Queues the messages through the first server, then lets the given servers drain them. */
    private void drainOn(List<BenchServer> servers, CpuMeter cpu, boolean warmUp) throws Exception {
        database.emptyProcessedIds();
        String account = "bench-" + UUID.randomUUID();
        servers.get(0).queueCredits(account, MESSAGES, false);
        List<Long> before = servers.stream().map(BenchServer::processed).toList();
        atOnce(servers, each -> each.resume(BenchServer.EXACTLY_ONCE));
        // after the server commands, whose JVMs are no part of the drain
        CpuMeter.Reading start = cpu.read();
        BenchDatabase.Bookings booked = awaitBooked(account, MESSAGES, DRAIN);
        CpuMeter.Reading end = cpu.read();
        atOnce(servers, each -> each.pause(BenchServer.EXACTLY_ONCE));
        String n = "scale_" + servers.size();
        record(warmUp, n, booked.perSecond());
        StringBuilder shares = new StringBuilder();
        for (int i = 0; i < servers.size(); i++) {
            double share = (double) (servers.get(i).processed() - before.get(i)) / MESSAGES;
            record(warmUp, n + "_share_" + (i + 1), share);
            shares.append(" %s %.0f %%".formatted(servers.get(i).name(), 100 * share));
        }
        Map<String, Double> use = cpu.shares(start, end);
        use.put(
                "servers",
                use.entrySet().stream()
                        .filter(part -> part.getKey().startsWith(SERVER))
                        .mapToDouble(Map.Entry::getValue)
                        .sum());
        StringBuilder machine = new StringBuilder();
        use.forEach((part, share) -> {
            record(warmUp, n + "_cpu_" + part, share);
            machine.append(" %s %.0f %%".formatted(part, 100 * share));
        });
        log(
                "servers=%d: %.0f msgs/s; shares:%s; CPU (of all cores):%s",
                servers.size(), booked.perSecond(), shares, machine);
    }

    private void recordLatencies(String name, List<Double> latencies) {
        double p50 = percentile(latencies, 50);
        double p99 = percentile(latencies, 99);
        log("latency %s: p50 %.0f ms, p99 %.0f ms", name, p50, p99);
        record("p50_" + name, p50);
        record("p99_" + name, p99);
    }

    private BenchDatabase.Bookings awaitBooked(String account, int count, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        BenchDatabase.Bookings booked;
        while ((booked = database.bookings(account)).count() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "only " + booked.count() + " of " + count + " credits booked after " + timeout);
            }
            Thread.sleep(200);
        }
        return booked;
    }

    private void record(String name, double value) {
        figures.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }

    private void record(boolean warmUp, String name, double value) {
        if (!warmUp) {
            record(name, value);
        }
    }

    /** The median of a figure's runs. */
    private double median(String name) {
        return percentile(figures.get(name), 50);
    }

    private static double percentile(List<Double> values, int percent) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index));
    }

    /** The table and the {@code bench:} lines of the parts that ran; a part left out prints nothing. */
    private void report() throws IOException {
        List<String> lines = new ArrayList<>();
        if (figures.containsKey("eo_c" + CONCURRENCY.get(0))) {
            lines.addAll(List.of(
                    "| consumer |"
                            + CONCURRENCY.stream()
                                    .map(n -> " msgs/s at " + n + " |")
                                    .collect(joining()),
                    "|---|" + "---:|".repeat(CONCURRENCY.size()),
                    row("exactly-once (ID row + domain row)", "eo"),
                    row("exactly-once, batched receivers (up to 100 per transaction)", "batched"),
                    row("at-least-once (domain row only)", "alo"),
                    row("XA (container-managed, two-phase commit)", "xa"),
                    row("JDBC straight, no broker (the database's limit)", "db"),
                    row("JDBC straight, domain row only", "db_domain"),
                    ""));
        }
        int most = CONCURRENCY.get(CONCURRENCY.size() - 1);
        if (figures.containsKey("eo_c" + most + "_cpu_server")) {
            lines.addAll(cpuTable(most));
        }
        List<String> rows = new ArrayList<>();
        if (figures.containsKey("outbox_chain_c8")) {
            rows.add("| exactly-once at 8 (in turns with the next) | %.0f msgs/s |"
                    .formatted(median("eo_beside_outbox_c8")));
            rows.add("| credit booked, its receipt sent through the outbox and booked downstream, at 8 | %.0f msgs/s |"
                    .formatted(median("outbox_chain_c8")));
            rows.add("| receipt booked after its credit, p50 / p99, steady %d msgs/s | %.0f / %.0f ms |"
                    .formatted(LOAD_RATE, median("outbox_delay_p50_ms"), median("outbox_delay_p99_ms")));
        }
        if (figures.containsKey("eo_full_table")) {
            rows.add("| exactly-once at 8, empty ID table | %.0f msgs/s |".formatted(median("eo_empty_table")));
            rows.add("| exactly-once at 8, %,d IDs in the table | %.0f msgs/s |"
                    .formatted(TABLE_FILL, median("eo_full_table")));
        }
        if (figures.containsKey("p99_purge")) {
            rows.add("| latency send → booking, p50 / p99, steady %d msgs/s | %.0f / %.0f ms |"
                    .formatted(LOAD_RATE, median("p50_none"), median("p99_none")));
            rows.add("| the same while a purge deletes %,d IDs | %.0f / %.0f ms |"
                    .formatted(PURGE_IDS, median("p50_purge"), median("p99_purge")));
        }
        if (figures.containsKey("purge10m_seconds")) {
            rows.add("| one purge run over %,d IDs (%,.0f deleted, %,.0f unconfirmed confirmed) | %.0f s |"
                    .formatted(
                            TABLE_FILL,
                            median("purge10m_deleted"),
                            median("purge10m_confirmed"),
                            median("purge10m_seconds")));
            rows.add("| its longest batch holding deliveries | %.0f ms |".formatted(median("purge_lock_max_ms")));
        }
        if (!rows.isEmpty()) {
            lines.addAll(List.of("| figure | value |", "|---|---:|"));
            lines.addAll(rows);
            lines.add("");
        }
        if (figures.containsKey("scale_1")) {
            lines.addAll(scaleTable());
        }
        String table = String.join("\n", lines);
        System.out.println();
        System.out.println(table);
        System.out.println();
        if (!failedParts.isEmpty()) {
            System.out.println("bench: failed_parts=" + String.join(",", failedParts));
        }
        Files.writeString(Path.of(System.getProperty("bench.report", "benchmark.md")), table + "\n");
    }

    /** On every server at once: Liberty's server command takes a second or two, a head start that would skew the shares. */
    private static void atOnce(List<BenchServer> servers, Consumer<BenchServer> action) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(servers.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            servers.forEach(each -> done.add(pool.submit(() -> action.accept(each))));
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** Per number of servers: throughput, its ratio to one server, each server's share, the CPU's use. */
    private List<String> scaleTable() {
        List<String> lines = new ArrayList<>(List.of(
                "| servers | msgs/s | × one server | shares | CPU busy (of all cores) | broker | servers | database | benchmark | other |",
                "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"));
        for (int n = 1; figures.containsKey("scale_" + n); n++) {
            String key = "scale_" + n;
            List<String> shares = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                shares.add("%.0f %%".formatted(100 * median(key + "_share_" + i)));
            }
            lines.add("| %d | %.0f | %.2f | %s | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %.0f %% |"
                    .formatted(
                            n,
                            median(key),
                            median(key) / median("scale_1"),
                            String.join(" / ", shares),
                            100 * median(key + "_cpu_busy"),
                            100 * median(key + "_cpu_broker"),
                            100 * median(key + "_cpu_servers"),
                            100 * median(key + "_cpu_postgresql"),
                            100 * median(key + "_cpu_benchmark"),
                            100 * median(key + "_cpu_other")));
        }
        return lines;
    }

    /** One consumer's msgs/s at each concurrency the part ran. */
    private String row(String label, String name) {
        return "| " + label + " |"
                + CONCURRENCY.stream()
                        .map(n -> " %.0f |".formatted(median(name + "_c" + n)))
                        .collect(joining());
    }

    /** Each consumer's CPU time per message at the given concurrency: where its cost lies. */
    private List<String> cpuTable(int consumers) {
        List<String> lines = new ArrayList<>(List.of(
                "| CPU ms per message at " + consumers + " | server | database | benchmark |", "|---|---:|---:|---:|"));
        for (String name : List.of("eo", "batched", "alo", "xa", "db", "db_domain")) {
            String key = name + "_c" + consumers + "_cpu_";
            lines.add("| %s | %.2f | %.2f | %.2f |"
                    .formatted(name, median(key + "server"), median(key + "database"), median(key + "benchmark")));
        }
        lines.add("");
        return lines;
    }

    /** Every {@code bench:} line whose figures the parts run so far have made, by name, in a fixed order. */
    private Map<String, String> benchLines() {
        Map<String, String> lines = new LinkedHashMap<>();
        ratio(lines, "eo_vs_alo_c8", "eo_c8", "alo_c8");
        ratio(lines, "eo_vs_xa_c8", "eo_c8", "xa_c8");
        ratio(lines, "eo_vs_db_c8", "eo_c8", "db_c8");
        ratio(lines, "db_id_vs_none_c8", "db_c8", "db_domain_c8");
        ratio(lines, "eo_server_cpu_vs_alo_c8", "eo_c8_cpu_server", "alo_c8_cpu_server");
        ratio(lines, "batched_vs_single_c8", "batched_c8", "eo_c8");
        ratio(lines, "batched_vs_db_c8", "batched_c8", "db_c8");
        ratio(lines, "eo_vs_alo_c1", "eo_c1", "alo_c1");
        ratio(lines, "eo_vs_xa_c1", "eo_c1", "xa_c1");
        ratio(lines, "table10m_vs_empty", "eo_full_table", "eo_empty_table");
        ratio(lines, "outbox_chain_vs_eo_c8", "outbox_chain_c8", "eo_beside_outbox_c8");
        ratio(lines, "p99_purge_vs_none", "p99_purge", "p99_none");
        ratio(lines, "crash_guard_vs_off_c8", "eo_crash_guard_c8", "eo_crash_guard_off_c8");
        ratio(
                lines,
                "crash_guard_server_cpu_vs_off_c8",
                "eo_crash_guard_c8_cpu_server",
                "eo_crash_guard_off_c8_cpu_server");
        for (int n = 2; figures.containsKey("scale_" + n); n++) {
            ratio(lines, "scale_" + n + "_vs_1", "scale_" + n, "scale_1");
        }
        for (String figure : List.of(
                "eo_c8:eo_msgs_per_s_c8",
                "outbox_delay_p50_ms",
                "outbox_delay_p99_ms",
                "purge10m_seconds",
                "purge_lock_max_ms",
                "heap_mb_idle",
                "heap_mb_loaded",
                "heap_mb_after_purge")) {
            String[] named = figure.split(":");
            if (figures.containsKey(named[0])) {
                lines.put(named[named.length - 1], "%.0f".formatted(median(named[0])));
            }
        }
        return lines;
    }

    /** The ratio of two figures' medians, when both parts ran. */
    private void ratio(Map<String, String> lines, String name, String numerator, String denominator) {
        if (figures.containsKey(numerator) && figures.containsKey(denominator)) {
            lines.put(name, "%.2f".formatted(median(numerator) / median(denominator)));
        }
    }

    private static void log(String format, Object... values) {
        System.out.printf("bench [%s] %s%n", Instant.now(), format.formatted(values));
    }
}
