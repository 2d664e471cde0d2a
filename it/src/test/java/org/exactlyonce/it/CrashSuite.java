package org.exactlyonce.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Crashes the server again and again while it processes a stream of credits, then counts effects on
 * the ledger: every sent ID must have exactly one. The crashes cycle through the protocol's crash
 * points (armed through the sample's fault injection, each halting the JVM like {@code kill -9}) and
 * real {@code kill -9}s at random moments; on a standalone broker, {@code kill -9}s of the broker too,
 * while the server stays up. Producer duplicates are part of the stream. Where several servers share
 * the queue, the crashes go to each of them in turn, the first server taking the sends.
 */
final class CrashSuite {

    /** What the suite crashes at, in turn: the protocol's crash points, then a random kill. */
    static final List<String> CRASH_POINTS =
            List.of("BEFORE_COMMIT", "AFTER_COMMIT", "PURGE_CONFIRMED", "PURGE_DELETING", "KILL");

    /** A {@code kill -9} of the standalone broker at a random moment, and its start: the server stays up. */
    static final String BROKER = "BROKER";

    /** The points a delivery reaches. */
    private static final List<String> DELIVERY_POINTS = List.of("BEFORE_COMMIT", "AFTER_COMMIT");

    /** How long each credit's processing takes: a share before a delivery's crash point, and else. */
    private static final Duration SLOW = Duration.ofMillis(250);

    private static final Duration FAST = Duration.ofMillis(25);

    /** Slow enough that most credits are still to be booked when the database stops, on any server. */
    private static final Duration DURING_OUTAGE = Duration.ofMillis(100);

    /** How long a producer sends an order again: longer than a server takes to reconnect to a restarted broker. */
    private static final Duration SEND_RETRIES = Duration.ofMinutes(2);

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
     * -Dcrash-suite.messages} credits (500) and {@code -Dcrash-suite.crashes} crashes (once at each point).
     */
    Result runAtEveryPoint() throws Exception {
        return run(Integer.getInteger("crash-suite.messages", 500), crashes(), crashPoints(), false);
    }

    /** How many crashes {@link #runAtEveryPoint} makes. */
    int crashes() {
        int crashes = Integer.getInteger("crash-suite.crashes", 0);
        return crashes > 0 ? crashes : crashPoints().size();
    }

    /** The crash points on this phase's setup: the broker's too where it stands alone. */
    List<String> crashPoints() {
        return broker.isEmpty()
                ? CRASH_POINTS
                : Stream.concat(CRASH_POINTS.stream(), Stream.of(BROKER)).toList();
    }

    /**
     * Sends {@code messages} credits (and re-sends a tenth of them), crashes the server {@code crashes}
     * times at the given points in turn while they are processed, waits until they are, and checks.
     * The credits are sent in shares, one before each crash: after every restart deliveries come
     * again, which a restarted server's purge needs (it learns a consumer's queue from a delivery),
     * and a long run still has deliveries and purges to crash in at its end.
     */
    Result run(int messages, int crashes, List<String> points, boolean atLeastOnce) throws Exception {
        String account = "crash-" + UUID.randomUUID();
        List<String> sent = new ArrayList<>();
        List<String> crashed = new ArrayList<>();
        try {
            for (int i = 0; i < crashes; i++) {
                String point = points.get(i % points.size());
                // a delivery's point is armed while the share is still being processed: slower credits,
                // or a fast server would have processed them all before
                Duration processing = DELIVERY_POINTS.contains(point) ? SLOW.multipliedBy(servers.size()) : FAST;
                sent.addAll(send(ledger, account, shareOf(messages, crashes, i), atLeastOnce, processing));
                // each server in turn, shifted by one every round of the points, so that in a long run
                // every server meets every point
                TestServer server = servers.get((i % points.size() + i / points.size()) % servers.size());
                crashed.add(crash(point, server, () -> sent.addAll(moreToPurge(server, account, atLeastOnce))));
                if (!point.equals(BROKER)) {
                    server.restart();
                }
            }
        } catch (Exception | AssertionError failed) {
            restartWhereDown(failed); // for the tests that follow, whatever went wrong here
            throw failed;
        }
        if (sent.size() < messages) { // no crash
            sent.addAll(send(ledger, account, messages - sent.size(), atLeastOnce, FAST));
        }
        awaitAllProcessed(account, sent.size());
        return Result.of(sent, crashed, 0, ledger.effects(account));
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
     * Sends {@code messages} credits (and re-sends a tenth of them), stops the database for the given
     * time while they are processed, starts it again, waits until they are processed, and checks.
     */
    Result runWithOutage(int messages, PostgreSql database, Duration outage) throws Exception {
        String account = "outage-" + UUID.randomUUID();
        List<String> sent = send(ledger, account, messages, false, DURING_OUTAGE);
        Await.until( // then at once: a fast server processes them all within a few seconds
                "a tenth of the credits is booked",
                Duration.ofSeconds(30),
                () -> ledger.effects(account).size() >= messages / 10);
        if (ledger.effects(account).size() == messages) {
            throw new AssertionError("every credit was booked before the database could stop: no outage tested");
        }
        database.stop();
        try {
            Await.pause(outage);
        } finally {
            database.start();
        }
        awaitAllProcessed(account, messages);
        return Result.of(sent, List.of(), 1, ledger.effects(account));
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
    private List<String> send(
            LedgerClient via, String account, int messages, boolean atLeastOnce, Duration processing) {
        String prefix = UUID.randomUUID() + "-";
        JsonObject order = Json.createObjectBuilder()
                .add("idPrefix", prefix)
                .add("account", account)
                .add("count", messages)
                .add("amount", 1)
                .add("duplicateShare", 0.1)
                .add("atLeastOnce", atLeastOnce)
                .add("faults", Json.createObjectBuilder().add("processMillis", processing.toMillis()))
                .build();
        Await.until(
                "the server sends an order of " + messages + " credits",
                SEND_RETRIES,
                () -> via.trySendBulk(order).isPresent());
        return IntStream.range(0, messages).mapToObj(i -> prefix + i).toList();
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
        server.ledger().armCrash(point);
        // longer than the test servers' dedup window (a minute at most) and a purge period: an ID acknowledged
        // at the point before is deleted within it, so a short run reaches PURGE_DELETING too
        long deadline = System.nanoTime() + Duration.ofSeconds(75).toNanos();
        while (true) {
            try {
                server.awaitCrash(Duration.ofSeconds(10));
                return point + where;
            } catch (AssertionError notYet) {
                if (System.nanoTime() > deadline) {
                    server.kill(); // disarms it
                    return "KILL(" + point + " not reached)" + where;
                }
                if (point.startsWith("PURGE") && servers.size() > 1) {
                    moreToPurge.run();
                }
            }
        }
    }

    /**
     * A few credits more, sent through another server than the one armed to crash in its purge: the
     * servers' purges race for the same IDs, and each new batch gives the armed one another chance.
     */
    private List<String> moreToPurge(TestServer armed, String account, boolean atLeastOnce) {
        LedgerClient via = servers.stream()
                .filter(server -> server != armed)
                .findFirst()
                .orElseThrow()
                .ledger();
        return send(via, account, 10, atLeastOnce, FAST);
    }

    private void pauseForARandomMoment() {
        Await.pause(Duration.ofMillis(200 + random.nextInt(1000)));
    }

    private void awaitAllProcessed(String account, int messages) {
        try {
            Await.until(
                    "every ID has an effect",
                    Duration.ofMinutes(5),
                    () -> ledger.effects(account).size() == messages);
        } catch (AssertionError lostSome) {
            return; // the result names them
        }
        long effects;
        do { // until no late redelivery adds an effect any more
            effects = totalEffects(account);
            Await.pause(Duration.ofSeconds(5));
        } while (effects != totalEffects(account));
    }

    private long totalEffects(String account) {
        return ledger.effects(account).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /** The check of one run: which IDs have no effect, which more than one. */
    record Result(int messages, List<String> crashes, int outages, List<String> lost, List<String> duplicated) {

        static Result of(List<String> sent, List<String> crashes, int outages, Map<String, Long> effects) {
            List<String> lost = new ArrayList<>();
            List<String> duplicated = new ArrayList<>();
            for (String id : sent) {
                long count = effects.getOrDefault(id, 0L);
                if (count == 0) {
                    lost.add(id);
                } else if (count > 1) {
                    duplicated.add(id + "×" + count);
                }
            }
            return new Result(sent.size(), crashes, outages, lost, duplicated);
        }

        /** The one summary line, in the form scripts compare. */
        String summary() {
            return "crash-suite: messages=" + messages + " crashes=" + crashes.size()
                    + (outages == 0 ? "" : " outages=" + outages) + " lost=" + lost.size() + " duplicated="
                    + duplicated.size();
        }

        String details() {
            return "crashed at " + crashes + ", lost=" + lost + " duplicated=" + duplicated;
        }
    }
}
