package org.exactlyonce.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * Crashes the server again and again while it processes a stream of credits, then counts effects on
 * the ledger: every sent ID must have exactly one. The crashes cycle through the protocol's crash
 * points (armed through the sample's fault injection, each halting the JVM like {@code kill -9}) and
 * real {@code kill -9}s at random moments; on a standalone broker, {@code kill -9}s of the broker too,
 * while the server stays up. Producer duplicates are part of the stream. Where several servers share
 * the queue, the crashes go to each of them in turn, the first server taking the sends. Through the
 * outbox (the route {@code with-receipts}), each credit's consumer sends a receipt that a second
 * consumer books, the relay's point joins the others, and every credit and every receipt must have
 * exactly one effect.
 */
final class CrashSuite {

    /** How a crash the suite armed but had to replace by a kill is listed. */
    private static final String NOT_REACHED_PREFIX = "KILL(";

    /** The purge's delete, where several servers' purges race for the same IDs. */
    private static final String PURGE_DELETING = "PURGE_DELETING";

    /** What the suite crashes at, in turn: the protocol's crash points, then a random kill. */
    static final List<String> CRASH_POINTS =
            List.of("BEFORE_COMMIT", "AFTER_COMMIT", "PURGE_CONFIRMED", PURGE_DELETING, "KILL");

    /** Through the outbox, also: the relay between its send and its delete. */
    static final String OUTBOX_SENT = "OUTBOX_SENT";

    /** A {@code kill -9} of the standalone broker at a random moment, and its start: the server stays up. */
    static final String BROKER = "BROKER";

    /** The points deliveries reach, or the relay right after them. */
    private static final List<String> DELIVERY_POINTS = List.of("BEFORE_COMMIT", "AFTER_COMMIT", OUTBOX_SENT);

    /** Where the credits go, and what each must have booked once. */
    enum Route {
        /** The exactly-once consumer: one credit per ID. */
        EXACTLY_ONCE,
        /** The baseline without a processed-ID table, which the suite must catch duplicating. */
        AT_LEAST_ONCE,
        /**
         * The consumer that books each credit and sends its receipt through the outbox, and downstream the
         * receipts' consumer: one credit and one receipt per ID.
         */
        WITH_RECEIPTS,
        /** The harness's batched receiver: one credit per ID, many per transaction. */
        BATCHED
    }

    /** How long each credit's processing takes: a share before a delivery's crash point, and else. */
    private static final Duration SLOW = Duration.ofMillis(250);

    private static final Duration FAST = Duration.ofMillis(25);

    /** Slow enough that most credits are still to be booked when the database stops, on any server. */
    private static final Duration DURING_OUTAGE = Duration.ofMillis(100);

    /** How long a producer sends an order again: longer than a server takes to reconnect to a restarted broker. */
    private static final Duration SEND_RETRIES = Duration.ofMinutes(2);

    /** How long the purges may go on changing the acknowledged IDs after the last message is processed. */
    private static final Duration PURGES_SETTLE = Duration.ofSeconds(30);

    private final LedgerClient ledger;
    private final List<TestServer> servers;
    private final Optional<StandaloneBroker> broker;
    private final Random random = new Random();

    CrashSuite(TestServer server) {
        this(List.of(server));
    }

    /** The servers that share the phase's queue, the first one taking the sends. */
    CrashSuite(List<TestServer> servers) {
        this.ledger = servers.get(0).ledger();
        this.servers = servers;
        this.broker = StandaloneBroker.ofThePhase();
    }

    /**
     * The suite as the build runs it, at every point of this phase's setup in turn: {@code
     * -Dcrash-suite.messages} credits (500) and {@code -Dcrash-suite.crashes} crashes (once at each
     * point), along the route {@code -Dcrash-suite.route} names ({@code exactly-once}, the default, or
     * {@code with-receipts}).
     */
    Result runAtEveryPoint() throws Exception {
        return run(Integer.getInteger("crash-suite.messages", 500), crashes(), crashPoints(), route());
    }

    /** The route of the phase: {@code -Dcrash-suite.route}. */
    static Route route() {
        String route = System.getProperty("crash-suite.route", "exactly-once");
        return Route.valueOf(route.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** How many crashes {@link #runAtEveryPoint} makes. */
    int crashes() {
        int crashes = Integer.getInteger("crash-suite.crashes", 0);
        return crashes > 0 ? crashes : crashPoints().size();
    }

    /**
     * The crash points on this phase's setup: the relay's where the route goes through the outbox, the
     * broker's where it stands alone.
     */
    List<String> crashPoints() {
        return crashPoints(route());
    }

    /** The crash points of a route on this phase's setup. */
    List<String> crashPoints(Route route) {
        List<String> points = new ArrayList<>(CRASH_POINTS);
        if (route == Route.WITH_RECEIPTS) {
            points.add(points.indexOf("KILL"), OUTBOX_SENT);
        }
        broker.ifPresent(standalone -> points.add(BROKER));
        return points;
    }

    /**
     * Sends {@code messages} credits (and re-sends a tenth of them), crashes the server {@code crashes}
     * times at the given points in turn while they are processed, waits until they are, and checks.
     * The credits are sent in shares, one before each crash: after every restart deliveries come
     * again, which a restarted server's purge needs (it learns a consumer's queue from a delivery),
     * and a long run still has deliveries and purges to crash in at its end.
     */
    Result run(int messages, int crashes, List<String> points, Route route) throws Exception {
        String account = "crash-" + UUID.randomUUID();
        List<String> sent = new ArrayList<>();
        List<String> crashed = new ArrayList<>();
        try {
            for (int i = 0; i < crashes; i++) {
                String point = points.get(i % points.size());
                int share = shareOf(messages, crashes, i);
                // each server in turn, shifted by one every round of the points, so that in a long run
                // every server meets every point
                TestServer server = servers.get((i % points.size() + i / points.size()) % servers.size());
                if (route == Route.WITH_RECEIPTS && DELIVERY_POINTS.contains(point)) {
                    sent.addAll(crashWhileSending(point, server, orderOf(account, share, route, FAST), crashed));
                    continue;
                }
                // a delivery's point is armed while the share is still being processed: slower credits,
                // or a fast server would have processed them all before
                Duration processing = DELIVERY_POINTS.contains(point) ? SLOW.multipliedBy(servers.size()) : FAST;
                sent.addAll(send(ledger, orderOf(account, share, route, processing)));
                String where = crash(point, server, () -> sent.addAll(moreToPurge(server, account, route)));
                crashed.add(where);
                if (!point.equals(BROKER)) {
                    server.restart();
                }
                if (where.startsWith(NOT_REACHED_PREFIX) && racesOtherPurges(point)) {
                    // the servers' purges race for the same IDs, and one may lose every race (the WildFly
                    // on Artemis lost every deletion race in two CI runs of three, before the others'
                    // deletions were held; confirmations still race): the point is armed on the next
                    // server, so that the run still crashes some server there
                    TestServer next = servers.get((servers.indexOf(server) + 1) % servers.size());
                    crashed.add(crash(point, next, () -> sent.addAll(moreToPurge(next, account, route))));
                    next.restart();
                }
            }
        } catch (Exception | AssertionError failed) {
            restartWhereDown(failed); // for the tests that follow, whatever went wrong here
            throw failed;
        }
        if (sent.size() < messages) { // no crash
            sent.addAll(send(ledger, orderOf(account, messages - sent.size(), route, FAST)));
        }
        List<String> ledgers =
                route == Route.WITH_RECEIPTS ? List.of(account, "receipts-" + account) : List.of(account);
        awaitAllProcessed(ledgers, sent.size());
        awaitKeptCountsHold();
        return Result.of(
                route == Route.WITH_RECEIPTS ? "outbox-chain" : route == Route.BATCHED ? "batched" : "crash-suite",
                sent,
                crashed,
                0,
                effects(ledgers));
    }

    /**
     * The purge keeps each consumer's count of acknowledged IDs in the transactions that confirm and
     * delete them, which the suite halts: once the purges settle, every kept count equals the IDs (the
     * figure and the count are read together, while a purge may still be changing both).
     */
    private void awaitKeptCountsHold() {
        List<String> differ = List.of();
        for (Instant giveUp = Instant.now().plus(PURGES_SETTLE); Instant.now().isBefore(giveUp); ) {
            differ = ledger.acknowledgedCountsThatDiffer();
            if (differ.isEmpty()) {
                return;
            }
            Await.pause(Duration.ofSeconds(1));
        }
        throw new AssertionError("kept counts of acknowledged IDs that differ from the table: " + differ);
    }

    /** The effects on each of the accounts, by ID. */
    private List<Map<String, Long>> effects(List<String> accounts) {
        return accounts.stream().map(ledger::effects).toList();
    }

    /**
     * Arms the point, then sends the order: the chain's consumers take no delay from the credits, so the
     * point is armed before their deliveries begin. The armed server may halt while it sends the order;
     * once it is back the order is sent again, as a producer retries, and what went out the first time
     * is dropped as duplicates.
     *
     * @return the IDs sent
     */
    private List<String> crashWhileSending(String point, TestServer server, JsonObject order, List<String> crashed)
            throws Exception {
        server.forgetEarlierHalts();
        server.ledger().armCrash(point);
        ledger.trySendBulk(order);
        crashed.add(awaitArmedCrash(point, server, () -> {}));
        server.restart();
        return send(ledger, order);
    }

    private void restartWhereDown(Throwable failed) {
        for (TestServer server : servers) {
            try {
                if (!server.ledger().answers()) {
                    server.restart();
                }
            } catch (Exception | AssertionError notRestarted) {
                failed.addSuppressed(notRestarted);
            }
        }
    }

    /** Share {@code index} of {@code messages} in {@code shares}; the last takes what division leaves. */
    private static int shareOf(int messages, int shares, int index) {
        int share = messages / shares;
        return index == shares - 1 ? messages - share * (shares - 1) : share;
    }

    /**
     * Sends {@code messages} credits (and re-sends a tenth of them), takes the database away for the
     * given time while they are processed, brings it back, waits until they are processed, and checks.
     * {@code during} runs while the database is away, from its start, and may take part of that time.
     */
    Result runWithOutage(int messages, DatabaseOutage database, Duration outage, Runnable during) throws Exception {
        String account = "outage-" + UUID.randomUUID();
        List<String> sent = send(ledger, orderOf(account, messages, Route.EXACTLY_ONCE, DURING_OUTAGE));
        Await.until( // then at once: a fast server processes them all within a few seconds
                "a tenth of the credits is booked",
                Duration.ofSeconds(30),
                () -> ledger.effects(account).size() >= messages / 10);
        if (ledger.effects(account).size() == messages) {
            throw new AssertionError("every credit was booked before the database could stop: no outage tested");
        }
        Instant back = Instant.now().plus(outage);
        database.begin().run();
        try {
            during.run();
            Duration left = Duration.between(Instant.now(), back);
            if (!left.isNegative()) {
                Await.pause(left);
            }
        } finally {
            database.end().run();
        }
        awaitAllProcessed(List.of(account), messages);
        return Result.of("outage-" + database.name(), sent, List.of(), 1, effects(List.of(account)));
    }

    /**
     * A way for the database to be away, stopped or hung: its name in the summary line, what takes it
     * away, and what brings it back.
     */
    record DatabaseOutage(String name, Step begin, Step end) {

        interface Step {
            void run() throws Exception;
        }
    }

    /**
     * Sends the credits as a producer that retries does: when the server cannot send them (its connection
     * to a restarted broker not yet renewed), it sends the whole order again with the same IDs, which the
     * consumer drops where they went out the first time. Those come again within a second or two, inside
     * every test server's dedup window; failures that went on for longer than the window could re-send
     * IDs that the purge has deleted, which the suite would report as duplicated: a false alarm, never a
     * hidden loss.
     *
     * @return the IDs sent (the re-sent duplicates among them only once)
     */
    private static List<String> send(LedgerClient via, JsonObject order) {
        int messages = order.getInt("count");
        Await.until(
                "the server sends an order of " + messages + " credits",
                SEND_RETRIES,
                () -> via.trySendBulk(order).isPresent());
        String prefix = order.getString("idPrefix");
        return IntStream.range(0, messages).mapToObj(i -> prefix + i).toList();
    }

    /** {@code messages} credits of 1 with new IDs, a tenth of them sent twice, each taking {@code processing}. */
    private static JsonObject orderOf(String account, int messages, Route route, Duration processing) {
        return Json.createObjectBuilder()
                .add("idPrefix", UUID.randomUUID() + "-")
                .add("account", account)
                .add("count", messages)
                .add("amount", 1)
                .add("duplicateShare", 0.1)
                .add("atLeastOnce", route == Route.AT_LEAST_ONCE)
                .add("withReceipts", route == Route.WITH_RECEIPTS)
                .add("batched", route == Route.BATCHED)
                .add("faults", Json.createObjectBuilder().add("processMillis", processing.toMillis()))
                .build();
    }

    /**
     * @return where it crashed: the point, or a kill when no delivery or purge reached it in time; and
     *     which server, where several share the queue
     */
    private String crash(String point, TestServer server, Runnable moreToPurge) throws Exception {
        if (point.equals(BROKER)) {
            pauseForARandomMoment();
            broker.orElseThrow().killAndStart();
            return point;
        }
        String where = servers.size() == 1 ? "" : "@" + server.name();
        if (point.equals("KILL")) {
            pauseForARandomMoment();
            server.kill();
            return point + where;
        }
        server.forgetEarlierHalts();
        server.ledger().armCrash(point);
        // the deletions go to whichever server's purge comes first: the others' wait for this one's
        List<TestServer> holding = point.equals(PURGE_DELETING)
                ? servers.stream().filter(other -> other != server).toList()
                : List.of();
        holding.forEach(other -> other.ledger().holdPurgeDeletions(true));
        try {
            return awaitArmedCrash(point, server, moreToPurge);
        } finally {
            holding.forEach(other -> other.ledger().holdPurgeDeletions(false));
        }
    }

    /** Whether the point is a purge's, where the other servers' purges race for the same IDs. */
    private boolean racesOtherPurges(String point) {
        return point.startsWith("PURGE") && servers.size() > 1;
    }

    /** Waits for the armed server to halt at the point; kills it when nothing reaches the point in time. */
    private String awaitArmedCrash(String point, TestServer server, Runnable moreToPurge) throws Exception {
        String where = servers.size() == 1 ? "" : "@" + server.name();
        boolean racing = racesOtherPurges(point);
        // longer than the test servers' dedup window (a minute at most) and a purge period: an ID acknowledged
        // at the point before is deleted within it, so a short run reaches PURGE_DELETING too
        long deadline = System.nanoTime() + Duration.ofSeconds(75).toNanos();
        while (true) {
            try {
                server.awaitCrash(Duration.ofSeconds(10));
            } catch (AssertionError notYet) {
                if (System.nanoTime() > deadline) {
                    server.kill(); // disarms it
                    return NOT_REACHED_PREFIX + point + " not reached)" + where;
                }
                if (racing) {
                    moreToPurge.run();
                }
                continue;
            }
            server.assertHaltedAt(point);
            return point + where;
        }
    }

    /**
     * A few credits more, sent through another server than the one armed to crash in its purge: the
     * servers' purges race for the same IDs, and each new batch gives the armed one another chance.
     */
    private List<String> moreToPurge(TestServer armed, String account, Route route) {
        LedgerClient via = servers.stream()
                .filter(server -> server != armed)
                .findFirst()
                .orElseThrow()
                .ledger();
        return send(via, orderOf(account, 10, route, FAST));
    }

    private void pauseForARandomMoment() {
        Await.pause(Duration.ofMillis(200 + random.nextInt(1000)));
    }

    private void awaitAllProcessed(List<String> accounts, int messages) {
        try {
            Await.until(
                    "every ID has an effect on " + accounts,
                    Duration.ofMinutes(5),
                    () -> accounts.stream()
                            .allMatch(account -> ledger.effects(account).size() == messages));
        } catch (AssertionError lostSome) {
            return; // the result names them
        }
        long effects;
        do { // until no late redelivery adds an effect any more
            effects = totalEffects(accounts);
            Await.pause(Duration.ofSeconds(5));
        } while (effects != totalEffects(accounts));
    }

    private long totalEffects(List<String> accounts) {
        return effects(accounts).stream()
                .flatMap(effects -> effects.values().stream())
                .mapToLong(Long::longValue)
                .sum();
    }

    /**
     * The check of one run: which IDs have no effect on some ledger, which more than one.
     *
     * @param name what the summary line starts with: {@code crash-suite}, {@code outbox-chain}
     */
    record Result(
            String name, int messages, List<String> crashes, int outages, List<String> lost, List<String> duplicated) {

        /** @param effects each ledger's effects by ID: a credit's, a receipt's */
        static Result of(
                String name, List<String> sent, List<String> crashes, int outages, List<Map<String, Long>> effects) {
            List<String> lost = new ArrayList<>();
            List<String> duplicated = new ArrayList<>();
            for (String id : sent) {
                List<Long> counts =
                        effects.stream().map(each -> each.getOrDefault(id, 0L)).toList();
                if (counts.contains(0L)) {
                    lost.add(id);
                } else if (counts.stream().anyMatch(count -> count > 1)) {
                    duplicated.add(id + "×" + counts);
                }
            }
            return new Result(name, sent.size(), crashes, outages, lost, duplicated);
        }

        /** The one summary line, in the form scripts compare. */
        String summary() {
            return name + ": " + figures();
        }

        /** The summary line's figures, for a line of another name. */
        String figures() {
            return "messages=" + messages + " crashes=" + crashes.size()
                    + (outages == 0 ? "" : " outages=" + outages) + " lost=" + lost.size() + " duplicated="
                    + duplicated.size();
        }

        String details() {
            return "crashed at " + crashes + ", lost=" + lost + " duplicated=" + duplicated;
        }

        /**
         * The points armed that no delivery or purge reached in time on any server, so that the suite
         * killed the server instead: a run that lists any did not test the points it names.
         */
        List<String> unreached() {
            return crashes.stream()
                    .filter(crash -> crash.startsWith(NOT_REACHED_PREFIX))
                    .map(crash -> crash.substring(NOT_REACHED_PREFIX.length(), crash.indexOf(' ')))
                    .filter(point ->
                            crashes.stream().noneMatch(crash -> crash.equals(point) || crash.startsWith(point + "@")))
                    .distinct()
                    .toList();
        }
    }
}
