package org.exactlyonce.internal.purge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Message;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.processed.IdTableCounts;
import org.junit.jupiter.api.Test;

/**
 * The purge's rules, one run at a time, over an ID table and a broker of the test's own: an ID is
 * confirmed only when the broker that delivered it no longer holds its message (or, when configured,
 * by its age where no broker can tell), deleted only after its confirmation and the dedup window, and
 * every look at the broker and every transaction stays within its page.
 */
class PurgeRunTest {

    private static final String CONSUMER = "app/ejb/Ledger";
    private static final PurgeRun.Source QUEUE = new PurgeRun.Source("credits", false);
    private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");

    private final StepClock clock = new StepClock(NOW);
    private final Table table = new Table();
    private final Broker broker = new Broker("broker-a");
    private final PurgeSettings settings = settings(2);

    @Test
    void anIdWhoseMessageLeftTheQueueIsConfirmedAndOneStillOnItIsKept() {
        table.processed("a", "broker-a", NOW.minusSeconds(60));
        table.processed("b", "broker-a", NOW.minusSeconds(60));
        broker.holds("b");

        PurgeReport report = run();

        assertEquals(1, report.confirmed());
        assertEquals(1, report.keptPending());
        assertEquals(NOW, table.row("a").acknowledgedAt);
        assertEquals(null, table.row("b").acknowledgedAt);
        assertEquals(List.of("credits"), broker.queuesAsked);
    }

    @Test
    void countsOfInterruptedDeliveriesOlderThanTheWindowAreForgotten() {
        run();

        assertEquals(List.of(NOW.minus(settings.dedupWindow())), table.interruptionsForgottenBefore);
    }

    @Test
    void anIdWithinTheGracePeriodIsNotAskedAbout() {
        table.processed("committing", "broker-a", NOW.minusSeconds(10)); // grace period 30 s

        PurgeReport report = run();

        assertEquals(0, report.confirmed());
        assertEquals(List.of(), broker.looks);
        assertEquals(null, table.row("committing").acknowledgedAt);
    }

    @Test
    void aLookServesFiftyPagesAndTheNextLookStartsAfterItsLastId() {
        IntStream.range(0, 250).forEach(i -> table.processed(id(i), "broker-a", NOW.minusSeconds(60)));

        PurgeReport report = run();

        assertEquals(250, report.confirmed());
        assertEquals(
                List.of(100, 100, 50), broker.looks.stream().map(List::size).toList());
        assertEquals(id(100), broker.looks.get(1).get(0).messageId());
        assertEquals(2, table.largestPage);
        assertEquals(2, table.largestConfirmation);
    }

    @Test
    void aTopicConsumerIsAskedAboutItsTopic() {
        table.processed("a", "broker-a", NOW.minusSeconds(60));

        PurgeReport report = new PurgeRun(table, broker, settings, clock)
                .over(List.of(CONSUMER), c -> Optional.of(new PurgeRun.Source("events", true)));

        assertEquals(1, report.confirmed());
        assertEquals(List.of("topic events"), broker.queuesAsked);
    }

    @Test
    void whenTheBrokerCannotTellEveryIdIsKeptAndTheReasonReported() {
        table.processed("a", "broker-a", NOW.minus(Duration.ofDays(3)));
        broker.cannotTell = new BrokerCannotTell("the management queue does not answer");

        PurgeReport report = run();

        assertEquals(0, report.confirmed());
        assertEquals(0, report.confirmedByAge());
        assertEquals(List.of("the management queue does not answer"), report.unconfirmableOf(CONSUMER));
        assertEquals(null, table.row("a").acknowledgedAt);
    }

    @Test
    void whenTheBrokerCannotTellAnIdOlderThanTheConfiguredAgeIsConfirmedByAge() {
        settings.confirmByAge = Optional.of(Duration.ofDays(1));
        table.processed("old", "broker-a", NOW.minus(Duration.ofDays(2)));
        table.processed("young", "broker-a", NOW.minus(Duration.ofHours(2)));
        broker.cannotTell = new BrokerCannotTell("the management queue does not answer");

        PurgeReport report = run();

        assertEquals(1, report.confirmedByAge());
        assertEquals(NOW, table.row("old").acknowledgedAt);
        assertEquals(null, table.row("young").acknowledgedAt);
    }

    @Test
    void messagesKnownToWaitWhereTheViewCannotListThemAreNeverConfirmedByAge() {
        settings.confirmByAge = Optional.of(Duration.ofDays(1));
        table.processed("old", "broker-a", NOW.minus(Duration.ofDays(2)));
        broker.cannotTell = BrokerCannotTell.messagesWait("messages wait in a paging store the view cannot list");

        PurgeReport report = run();

        assertEquals(0, report.confirmedByAge());
        assertEquals(null, table.row("old").acknowledgedAt);
        assertTrue(report.unconfirmableOf(CONSUMER).get(0).contains("paging store"));
    }

    @Test
    void idsAnotherBrokerDeliveredAreReportedAndKept() {
        table.processed("here", "broker-a", NOW.minusSeconds(60));
        table.processed("there", "broker-b", NOW.minus(Duration.ofDays(2)));
        table.processed("nameless", null, NOW.minus(Duration.ofDays(2)));

        PurgeReport report = run();

        assertEquals(1, report.confirmed());
        assertEquals(null, table.row("there").acknowledgedAt);
        assertEquals(null, table.row("nameless").acknowledgedAt);
        assertEquals(
                Set.of(
                        "1 unconfirmed IDs from broker broker-b: this server sees broker broker-a",
                        "1 unconfirmed IDs from a broker that did not name itself: this server sees broker broker-a"),
                Set.copyOf(report.unconfirmableOf(CONSUMER)));
        assertEquals(
                List.of("here"),
                broker.looks.get(0).stream()
                        .map(BrokerView.Candidate::messageId)
                        .toList());
    }

    @Test
    void idsAnotherBrokerDeliveredAreConfirmedByAgeOnlyWhenConfigured() {
        settings.confirmByAge = Optional.of(Duration.ofDays(1));
        table.processed("there", "broker-b", NOW.minus(Duration.ofDays(2)));
        table.processed("mine-and-old", "broker-a", NOW.minus(Duration.ofDays(2)));
        broker.holds("mine-and-old");

        PurgeReport report = run();

        assertEquals(1, report.confirmedByAge());
        assertEquals(NOW, table.row("there").acknowledgedAt);
        assertEquals(null, table.row("mine-and-old").acknowledgedAt, "the broker that holds it has the last word");
    }

    @Test
    void anIdIsDeletedOnlyOnceConfirmedAndOlderThanTheDedupWindowInBatches() {
        IntStream.range(0, 5).forEach(i -> table.acknowledged(id(i), NOW.minus(Duration.ofHours(2))));
        table.acknowledged("recent", NOW.minus(Duration.ofMinutes(10))); // dedup window 1 h
        table.processed("unconfirmed", "broker-a", NOW.minus(Duration.ofHours(3)));
        broker.holds("unconfirmed");

        PurgeReport report = run();

        assertEquals(5, report.deleted());
        assertEquals(Set.of("recent", "unconfirmed"), table.rows.keySet());
        assertEquals(List.of("", id(1), id(3)), table.lookUpsAfter, "each batch starts after the last");
        assertEquals(
                new IdTableCounts(1, 1, NOW.minus(Duration.ofHours(3)), NOW),
                report.idTables().get(CONSUMER));
    }

    @Test
    void deletionsGoInTheOrderOfConfirmationSoEachBatchStartsWhereTheLastEnded() {
        Instant earlier = NOW.minus(Duration.ofHours(3));
        Instant later = NOW.minus(Duration.ofHours(2));
        List.of("a", "c", "e").forEach(id -> table.acknowledged(id, later));
        List.of("b", "d").forEach(id -> table.acknowledged(id, earlier));

        PurgeReport report = run();

        assertEquals(5, report.deleted());
        assertEquals(List.of("", "d", "c"), table.lookUpsAfter, "b and d, then a and c, then e");
    }

    @Test
    void aRunThatTakesManyIntervalsShowsEachStepItFinishes() {
        IntStream.range(0, 6).forEach(i -> table.acknowledged(id(i), NOW.minus(Duration.ofHours(2))));
        table.deletionTakes = List.of(Duration.ofMinutes(4), Duration.ofMinutes(4), Duration.ofMinutes(4));
        PurgeRun run = new PurgeRun(table, broker, settings, clock);
        List<Instant> seenWhileDeleting = new ArrayList<>();
        table.beforeEachDeletion = () -> seenWhileDeleting.add(run.lastStep());

        run.over(List.of(CONSUMER), c -> Optional.of(QUEUE));

        assertEquals(
                List.of(NOW, NOW.plus(Duration.ofMinutes(4)), NOW.plus(Duration.ofMinutes(8))),
                seenWhileDeleting,
                "each batch of deletions a step: the run is never more than one batch behind");
        assertEquals(NOW.plus(Duration.ofMinutes(12)), run.lastStep(), "its count, the last step");
    }

    @Test
    void theLongestLockHoldIsTheSlowestBatchOfDeletionsWithoutLookingUpItsIds() {
        IntStream.range(0, 5).forEach(i -> table.acknowledged(id(i), NOW.minus(Duration.ofHours(2))));
        table.deletionTakes = List.of(Duration.ofMillis(5), Duration.ofMillis(40), Duration.ofMillis(7));
        table.lookingUpTakes = Duration.ofMillis(100); // before the lock: deliveries go on meanwhile

        PurgeReport report = run();

        assertEquals(Duration.ofMillis(40), report.longestLockHold());
    }

    @Test
    void aConsumerBeforeItsFirstDeliveryKeepsItsExpiredIdsUntilALook() {
        table.acknowledged("expired", NOW.minus(Duration.ofHours(2)));

        PurgeReport report =
                new PurgeRun(table, broker, settings, clock).over(List.of(CONSUMER), c -> Optional.empty());

        assertEquals(
                List.of("no delivery has recorded the destination it reads yet"), report.unconfirmableOf(CONSUMER));
        assertEquals(0, report.deleted(), "a re-send may wait on a queue that is paused: no look, no deletion");
        assertEquals(Set.of("expired"), table.rows.keySet());
    }

    /**
     * A producer's re-send held on a paused queue past the dedup window: its ID's own message is
     * confirmed gone, but the look finds a message carrying the ID, by the application's ID alone.
     */
    @Test
    void anExpiredIdThatAWaitingResendCarriesIsKeptUntilTheResendIsGone() {
        table.acknowledged("resent", NOW.minus(Duration.ofHours(2)));
        table.acknowledged("plain", NOW.minus(Duration.ofHours(2)));
        broker.holds("resent");

        PurgeReport kept = run();

        assertEquals(1, kept.deleted());
        assertEquals(1, kept.keptResent());
        assertEquals(Set.of("resent"), table.rows.keySet());
        assertEquals(
                List.of(new BrokerView.Candidate("plain", ""), new BrokerView.Candidate("resent", "")),
                broker.looks.get(0),
                "sought by the application's ID alone");
        assertTrue(kept.summary().contains("kept-resent=1"), kept.summary());

        broker.held.clear(); // the re-send is delivered, and dropped as a duplicate
        assertEquals(1, run().deleted());
        assertEquals(Set.of(), table.rows.keySet());
    }

    @Test
    void whenTheBrokerCannotTellExpiredIdsWaitUnlessConfirmedByAge() {
        table.acknowledged("expired", NOW.minus(Duration.ofHours(2)));
        broker.cannotTell = new BrokerCannotTell("the management queue does not answer");

        PurgeReport report = run();

        assertEquals(0, report.deleted());
        assertTrue(report.unconfirmableOf(CONSUMER).get(0).contains("kept until the broker can be looked at"));

        settings.confirmByAge = Optional.of(Duration.ofDays(1));
        assertEquals(1, run().deleted(), "by age alone, as configured for a broker no view can see");
    }

    @Test
    void confirmationsAreStampedWithTheTimeOfTheirLookNotTheRunsStart() {
        IntStream.range(0, 150).forEach(i -> table.processed(id(i), "broker-a", NOW.minusSeconds(60)));
        broker.lookTakes = Duration.ofMinutes(10);

        run();

        assertEquals(NOW, table.row(id(0)).acknowledgedAt);
        assertEquals(NOW.plus(Duration.ofMinutes(10)), table.row(id(149)).acknowledgedAt, "the second look's");
    }

    @Test
    void aFailingStepIsCountedAndRetriedNextRunWhileTheOtherConsumersArePurged() {
        table.processed("a", "broker-a", NOW.minusSeconds(60));
        table.failingConsumer = "app/ejb/Broken";

        PurgeReport report = new PurgeRun(table, broker, settings, clock)
                .over(List.of("app/ejb/Broken", CONSUMER), c -> Optional.of(QUEUE));

        assertEquals(3, report.failedBatches(), "its confirmation, its deletions and its count");
        assertEquals(1, report.confirmed());
        assertEquals(Set.of(CONSUMER), report.idTables().keySet());
    }

    private PurgeReport run() {
        return new PurgeRun(table, broker, settings, clock).over(List.of(CONSUMER), c -> Optional.of(QUEUE));
    }

    private static String id(int i) {
        return String.format("id-%04d", i);
    }

    private static PurgeSettings settings(int batchSize) {
        PurgeSettings settings = new PurgeSettings();
        settings.interval = Duration.ofMinutes(1);
        settings.dedupWindow = Duration.ofHours(1);
        settings.gracePeriod = Duration.ofSeconds(30);
        settings.batchSize = batchSize;
        settings.confirmByAge = Optional.empty();
        return settings;
    }

    /** One consumer's rows, as the ID table's queries select them. */
    private final class Table implements PurgeRun.IdTable {

        final Map<String, Row> rows = new TreeMap<>();
        final List<String> lookUpsAfter = new ArrayList<>();
        final List<Instant> interruptionsForgottenBefore = new ArrayList<>();
        List<Duration> deletionTakes = List.of();
        Runnable beforeEachDeletion = () -> {};
        int deletions;
        Duration lookingUpTakes = Duration.ZERO;
        String failingConsumer = "";
        int largestPage;
        int largestConfirmation;

        void processed(String id, String broker, Instant at) {
            rows.put(id, new Row(id, broker, at));
        }

        void acknowledged(String id, Instant at) {
            processed(id, "broker-a", at.minusSeconds(1));
            rows.get(id).acknowledgedAt = at;
        }

        Row row(String id) {
            return rows.get(id);
        }

        @Override
        public List<BrokerView.Candidate> unconfirmed(
                String consumer, Set<String> brokers, Instant processedBefore, String afterId, int limit) {
            List<BrokerView.Candidate> page = select(
                            consumer,
                            row -> row.acknowledgedAt == null
                                    && row.broker != null
                                    && brokers.contains(row.broker)
                                    && row.processedAt.isBefore(processedBefore)
                                    && row.id.compareTo(afterId) > 0)
                    .limit(limit)
                    .map(row -> new BrokerView.Candidate(row.id, "ID:" + row.id))
                    .toList();
            largestPage = Math.max(largestPage, page.size());
            return page;
        }

        @Override
        public List<String> unconfirmedBefore(
                String consumer, Set<String> exceptBrokers, Instant processedBefore, int limit) {
            return select(
                            consumer,
                            row -> row.acknowledgedAt == null
                                    && row.processedAt.isBefore(processedBefore)
                                    && (row.broker == null || !exceptBrokers.contains(row.broker)))
                    .limit(limit)
                    .map(row -> row.id)
                    .toList();
        }

        @Override
        public Map<String, Long> unconfirmedOfOtherBrokers(String consumer, Set<String> brokers) {
            Map<String, Long> counts = new java.util.HashMap<>();
            select(consumer, row -> row.acknowledgedAt == null && (row.broker == null || !brokers.contains(row.broker)))
                    .forEach(row -> counts.merge(row.broker, 1L, Long::sum));
            return counts;
        }

        @Override
        public int markAcknowledged(String consumer, Collection<String> messageIds, Instant now) {
            largestConfirmation = Math.max(largestConfirmation, messageIds.size());
            List<Row> marked = select(consumer, row -> row.acknowledgedAt == null && messageIds.contains(row.id))
                    .toList();
            marked.forEach(row -> row.acknowledgedAt = now);
            return marked.size();
        }

        @Override
        public List<PurgeRun.Acknowledged> acknowledgedUntil(
                String consumer, Instant cutoff, Optional<PurgeRun.Acknowledged> after, int limit) {
            clock.advance(lookingUpTakes);
            lookUpsAfter.add(after.map(PurgeRun.Acknowledged::messageId).orElse(""));
            Comparator<PurgeRun.Acknowledged> order =
                    Comparator.comparing(PurgeRun.Acknowledged::at).thenComparing(PurgeRun.Acknowledged::messageId);
            return select(consumer, row -> row.acknowledgedAt != null && !row.acknowledgedAt.isAfter(cutoff))
                    .map(row -> new PurgeRun.Acknowledged(row.id, row.acknowledgedAt))
                    .filter(row ->
                            after.map(last -> order.compare(row, last) > 0).orElse(true))
                    .sorted(order)
                    .limit(limit)
                    .toList();
        }

        @Override
        public int deleteAcknowledged(String consumer, List<String> messageIds, Instant cutoff) {
            beforeEachDeletion.run();
            if (deletions < deletionTakes.size()) {
                clock.advance(deletionTakes.get(deletions));
            }
            deletions++;
            List<String> expired = select(
                            consumer,
                            row -> messageIds.contains(row.id)
                                    && row.acknowledgedAt != null
                                    && !row.acknowledgedAt.isAfter(cutoff))
                    .map(row -> row.id)
                    .toList();
            expired.forEach(rows::remove);
            return expired.size();
        }

        @Override
        public int forgetInterruptionsBefore(String consumer, Instant before) {
            interruptionsForgottenBefore.add(before);
            return 0;
        }

        @Override
        public IdTableCounts count(String consumer) {
            List<Row> all = select(consumer, row -> true).toList();
            return new IdTableCounts(
                    all.stream().filter(row -> row.acknowledgedAt == null).count(),
                    all.stream().filter(row -> row.acknowledgedAt != null).count(),
                    all.stream()
                            .filter(row -> row.acknowledgedAt == null)
                            .map(row -> row.processedAt)
                            .min(Comparator.naturalOrder())
                            .orElse(null),
                    clock.instant());
        }

        private java.util.stream.Stream<Row> select(String consumer, java.util.function.Predicate<Row> where) {
            if (consumer.equals(failingConsumer)) {
                throw new IllegalStateException("lock timeout");
            }
            return rows.values().stream().filter(where);
        }
    }

    private static final class Row {
        final String id;
        final String broker;
        final Instant processedAt;
        Instant acknowledgedAt;

        Row(String id, String broker, Instant processedAt) {
            this.id = id;
            this.broker = broker;
            this.processedAt = processedAt;
        }
    }

    /** A broker holding some messages, by ID, which records every look. */
    private final class Broker implements BrokerView {

        final String name;
        final Set<String> held = new HashSet<>();
        final List<List<Candidate>> looks = new ArrayList<>();
        final List<String> queuesAsked = new ArrayList<>();
        BrokerCannotTell cannotTell;
        Duration lookTakes = Duration.ZERO;

        Broker(String name) {
            this.name = name;
        }

        void holds(String id) {
            held.add(id);
        }

        @Override
        public Optional<String> brokerOf(Message message) {
            return Optional.of(name);
        }

        @Override
        public Set<String> brokers() {
            return Set.of(name);
        }

        @Override
        public Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell {
            queuesAsked.add(queue);
            return look(candidates);
        }

        @Override
        public Set<String> stillOnTopic(String topic, Collection<Candidate> candidates) throws BrokerCannotTell {
            queuesAsked.add("topic " + topic);
            return look(candidates);
        }

        private Set<String> look(Collection<Candidate> candidates) throws BrokerCannotTell {
            if (cannotTell != null) {
                throw cannotTell;
            }
            looks.add(List.copyOf(candidates));
            clock.advance(lookTakes);
            return candidates.stream()
                    .map(Candidate::messageId)
                    .filter(held::contains)
                    .collect(Collectors.toSet());
        }
    }

    /** A clock that stands still unless the test moves it. */
    private static final class StepClock extends Clock {

        private Instant now;

        StepClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
