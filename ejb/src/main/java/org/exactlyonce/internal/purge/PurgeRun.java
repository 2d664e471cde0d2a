package org.exactlyonce.internal.purge;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.logging.Logger;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.exactlyonce.internal.processed.IdTableCounts;

/**
 * One purge run over the consumers deployed here, apart from the container that schedules it, so that
 * its paging, its confirmation and its fallbacks can be tested on their own: for each consumer it
 * confirms the unconfirmed IDs whose messages the broker no longer holds, deletes the acknowledged IDs
 * older than the dedup window, and counts what is left. A step that fails leaves its IDs as they were
 * (which is always safe) and is retried next run.
 */
final class PurgeRun {

    private static final Logger LOG = Logger.getLogger(PurgeRun.class.getName());

    /**
     * How many pages of IDs one look at the broker serves. A look lists the queue's messages in flight
     * and browses the whole queue, so it costs in proportion to the queue's depth, not to the page.
     */
    static final int PAGES_PER_LOOK = 50;

    /** The processed-ID table, as the purge reads and changes it; each call is its own transaction. */
    interface IdTable {

        /** A page of the consumer's IDs that the brokers delivered, unconfirmed, processed before the time, after the ID. */
        List<Candidate> unconfirmed(
                String consumer, Set<String> brokers, Instant processedBefore, String afterId, int limit);

        /**
         * Up to {@code limit} of the consumer's unconfirmed IDs processed before the time, of any broker but
         * those given (none when empty).
         */
        List<String> unconfirmedBefore(String consumer, Set<String> exceptBrokers, Instant processedBefore, int limit);

        /** How many of the consumer's IDs other brokers delivered wait unconfirmed, by broker ({@code null}: unknown). */
        Map<String, Long> unconfirmedOfOtherBrokers(String consumer, Set<String> brokers);

        /** @return how many of the IDs were newly confirmed */
        int markAcknowledged(String consumer, Collection<String> messageIds, Instant now);

        /**
         * Up to {@code limit} of the consumer's IDs acknowledged at or before the cutoff, in the order of
         * their acknowledgement and then of their ID, after the given one (empty for the first).
         */
        List<Acknowledged> acknowledgedUntil(String consumer, Instant cutoff, Optional<Acknowledged> after, int limit);

        /**
         * Deletes those of the IDs still acknowledged at or before the cutoff, in one transaction whose
         * delete runs while no delivery of the consumer can begin: the time it takes is at most how long
         * it holds them.
         *
         * @return how many it deleted
         */
        int deleteAcknowledged(String consumer, List<String> messageIds, Instant cutoff);

        IdTableCounts count(String consumer);

        /**
         * Forgets the crashes and failures counted for the consumer's messages whose last delivery was
         * interrupted before the time: messages handled since on a node that had forgotten their count.
         *
         * @return how many messages' counts it forgot
         */
        int forgetInterruptionsBefore(String consumer, Instant before);
    }

    /** An ID the purge confirmed at a time: where one batch of deletions ends and the next begins. */
    record Acknowledged(String messageId, Instant at) {}

    /** Where a consumer reads, as the broker view is asked about it. */
    record Source(String name, boolean isTopic) {}

    private final IdTable ids;
    private final BrokerView broker;
    private final PurgeSettings settings;
    private final Clock clock;

    private final Instant start;
    private int confirmed;
    private int confirmedByAge;
    private int keptPending;
    private int keptResent;
    private int deleted;
    private int failedBatches;
    private Duration longestLockHold = Duration.ZERO;
    private volatile Instant lastStep;
    private final Map<String, List<String>> unconfirmable = new TreeMap<>();
    private final Map<String, IdTableCounts> idTables = new TreeMap<>();

    PurgeRun(IdTable ids, BrokerView broker, PurgeSettings settings, Clock clock) {
        this.ids = ids;
        this.broker = broker;
        this.settings = settings;
        this.clock = clock;
        this.start = clock.instant();
        this.lastStep = start;
    }

    /**
     * Purges each consumer's IDs in turn.
     *
     * @param sourceOf where a consumer reads; empty before any delivery recorded it
     */
    PurgeReport over(Collection<String> consumers, Function<String, Optional<Source>> sourceOf) {
        for (String consumer : consumers) {
            Optional<Source> source = sourceOf.apply(consumer);
            List<String> reasons = new ArrayList<>(confirm(consumer, source));
            deleteExpired(consumer, source)
                    .filter(kept -> source.isPresent()) // else the confirmation said why already
                    .ifPresent(reasons::add);
            if (!reasons.isEmpty()) {
                unconfirmable.put(consumer, reasons);
            }
            forgetOldInterruptions(consumer);
            count(consumer);
        }
        return new PurgeReport(
                start,
                Duration.between(start, clock.instant()),
                longestLockHold,
                confirmed,
                confirmedByAge,
                keptPending,
                keptResent,
                deleted,
                failedBatches,
                unconfirmable,
                idTables);
    }

    /**
     * Confirms the consumer's IDs whose messages have left its queue, or its topic's subscriptions, on
     * this server's broker.
     *
     * @return why some of its IDs could not be confirmed: the broker cannot tell, or other brokers
     *     delivered them
     */
    private List<String> confirm(String consumer, Optional<Source> source) {
        if (source.isEmpty()) {
            return List.of("no delivery has recorded the destination it reads yet");
        }
        Set<String> brokerNames;
        try {
            brokerNames = broker.brokers();
        } catch (BrokerCannotTell e) {
            confirmByAge(consumer, Set.of()); // no view can tell: at most their age
            return List.of(String.valueOf(e.getMessage()));
        }
        confirmByAge(consumer, brokerNames);
        List<String> reasons = new ArrayList<>(elsewhere(consumer, brokerNames));
        confirmOnBroker(consumer, brokerNames, source.get()).ifPresent(reasons::add);
        return reasons;
    }

    /**
     * Takes as acknowledged the unconfirmed IDs older than {@code exactlyonce.purge.confirm-by-age}, when
     * it is set, that no view could be asked about: of every broker, or of brokers other than those given.
     */
    private void confirmByAge(String consumer, Set<String> exceptBrokers) {
        if (settings.confirmByAge().isEmpty()) {
            return;
        }
        Instant processedBefore = start.minus(settings.confirmByAge().get());
        try {
            List<String> old;
            do {
                old = ids.unconfirmedBefore(consumer, exceptBrokers, processedBefore, settings.batchSize());
                confirmedByAge += ids.markAcknowledged(consumer, old, start);
                stepped();
            } while (old.size() == settings.batchSize());
        } catch (RuntimeException e) {
            failedBatches++;
            LOG.warning(() -> "purge could not confirm " + consumer + "'s old IDs by age, will retry next run: " + e);
        }
    }

    /** The consumer's unconfirmed IDs that other brokers delivered, which this server cannot confirm. */
    private List<String> elsewhere(String consumer, Set<String> brokerNames) {
        try {
            List<String> reasons = new ArrayList<>();
            String seen = brokerNames.size() == 1
                    ? "broker " + brokerNames.iterator().next()
                    : "the broker nodes " + new TreeSet<>(brokerNames);
            ids.unconfirmedOfOtherBrokers(consumer, brokerNames)
                    .forEach((other, count) -> reasons.add(count + " unconfirmed IDs from "
                            + (other == null ? "a broker that did not name itself" : "broker " + other)
                            + ": this server sees " + seen));
            return reasons;
        } catch (RuntimeException e) {
            return List.of("its IDs of other brokers could not be counted: " + e);
        }
    }

    private Optional<String> confirmOnBroker(String consumer, Set<String> brokerNames, Source source) {
        Instant processedBefore = start.minus(settings.gracePeriod());
        String after = "";
        try {
            List<Candidate> candidates;
            do {
                candidates = unconfirmed(consumer, brokerNames, processedBefore, after);
                if (candidates.isEmpty()) {
                    break;
                }
                // the candidates were committed before the broker is asked: what it no longer has was acknowledged
                Instant looked = clock.instant(); // the window counts from the look, however long the run
                Set<String> pending = onBroker(source, candidates);
                stepped();
                List<String> gone = candidates.stream()
                        .map(Candidate::messageId)
                        .filter(id -> !pending.contains(id))
                        .toList();
                markAcknowledged(consumer, gone, looked);
                keptPending += pending.size();
                after = candidates.get(candidates.size() - 1).messageId();
            } while (candidates.size() == settings.batchSize() * PAGES_PER_LOOK);
            return Optional.empty();
        } catch (BrokerCannotTell e) {
            // the broker cannot tell: keep every unconfirmed ID, which is always safe, or go by age if configured
            if (e.allowsConfirmationByAge()) {
                confirmByAge(consumer, Set.of());
            }
            return Optional.of(String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            failedBatches++;
            LOG.warning(() -> "purge kept " + consumer + "'s unconfirmed IDs, will retry next run: " + e);
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    /** Up to {@link #PAGES_PER_LOOK} pages of unconfirmed IDs after the given one, in ID order. */
    private List<Candidate> unconfirmed(
            String consumer, Set<String> brokerNames, Instant processedBefore, String after) {
        List<Candidate> candidates = new ArrayList<>();
        List<Candidate> page;
        do {
            page = ids.unconfirmed(consumer, brokerNames, processedBefore, after, settings.batchSize());
            stepped();
            candidates.addAll(page);
            after = page.isEmpty() ? after : page.get(page.size() - 1).messageId();
        } while (page.size() == settings.batchSize() && candidates.size() < settings.batchSize() * PAGES_PER_LOOK);
        return candidates;
    }

    private Set<String> onBroker(Source source, Collection<Candidate> candidates) throws BrokerCannotTell {
        return source.isTopic()
                ? broker.stillOnTopic(source.name(), candidates)
                : broker.stillOnQueue(source.name(), candidates);
    }

    private void markAcknowledged(String consumer, List<String> gone, Instant looked) {
        for (int from = 0; from < gone.size(); from += settings.batchSize()) {
            confirmed += ids.markAcknowledged(
                    consumer, gone.subList(from, Math.min(gone.size(), from + settings.batchSize())), looked);
            stepped();
        }
    }

    /**
     * Deletes the consumer's IDs acknowledged longer ago than the dedup window, but for those that a
     * message waiting on the broker still carries: a producer's re-send held on a paused queue past the
     * window would be booked twice. One look at the broker serves {@link #PAGES_PER_LOOK} pages. Without
     * a look (no delivery has named the consumer's destination yet, the broker cannot tell) the IDs wait
     * for the next run; only where the view can never tell and {@code confirm-by-age} accepts an ID's age
     * instead of the broker's word are they deleted by their age alone.
     *
     * @return why expired IDs were kept for a later run; empty when none was kept for want of a look
     */
    private Optional<String> deleteExpired(String consumer, Optional<Source> source) {
        Instant cutoff = start.minus(settings.dedupWindow());
        try {
            List<Acknowledged> expired;
            Optional<Acknowledged> after = Optional.empty();
            do {
                expired = expired(consumer, cutoff, after);
                if (expired.isEmpty()) {
                    break;
                }
                Set<String> resent = resent(source, expired);
                keptResent += resent.size();
                List<String> deletable = expired.stream()
                        .map(Acknowledged::messageId)
                        .filter(id -> !resent.contains(id))
                        .toList();
                for (int from = 0; from < deletable.size(); from += settings.batchSize()) {
                    // the batch's whole transaction: at most how long it held deliveries, which it holds
                    // only while it deletes (taking that lock waits at most for a delivery's registration)
                    Instant began = clock.instant();
                    deleted += ids.deleteAcknowledged(
                            consumer,
                            deletable.subList(from, Math.min(deletable.size(), from + settings.batchSize())),
                            cutoff);
                    lockHeld(Duration.between(began, clock.instant()));
                    stepped();
                }
                after = Optional.of(expired.get(expired.size() - 1));
            } while (expired.size() == settings.batchSize() * PAGES_PER_LOOK);
            return Optional.empty();
        } catch (NoLook e) {
            return Optional.of("its IDs past the dedup window are kept until the broker can be looked at for"
                    + " re-sends that carry them: " + e.getMessage());
        } catch (RuntimeException e) {
            // a concurrent purge on another server may hold the same rows: they go next run
            failedBatches++;
            LOG.warning(() -> "purge of " + consumer + "'s acknowledged IDs stopped, will retry next run: " + e);
            return Optional.empty();
        }
    }

    /** Up to {@link #PAGES_PER_LOOK} pages of the consumer's IDs acknowledged at or before the cutoff. */
    private List<Acknowledged> expired(String consumer, Instant cutoff, Optional<Acknowledged> after) {
        List<Acknowledged> expired = new ArrayList<>();
        List<Acknowledged> page;
        do {
            page = ids.acknowledgedUntil(consumer, cutoff, after, settings.batchSize());
            stepped();
            expired.addAll(page);
            after = page.isEmpty() ? after : Optional.of(page.get(page.size() - 1));
        } while (page.size() == settings.batchSize() && expired.size() < settings.batchSize() * PAGES_PER_LOOK);
        return expired;
    }

    /**
     * The expired IDs that messages on the broker carry: re-sends, matched by the application's ID
     * alone (the message each ID came with is confirmed gone).
     *
     * @throws NoLook when there can be no look, and the IDs must wait
     */
    private Set<String> resent(Optional<Source> source, List<Acknowledged> expired) throws NoLook {
        if (source.isEmpty()) {
            throw new NoLook("no delivery has recorded the destination it reads yet");
        }
        List<Candidate> carriers = expired.stream()
                .map(id -> Candidate.byApplicationId(id.messageId()))
                .toList();
        try {
            Set<String> resent = onBroker(source.get(), carriers);
            stepped();
            return resent;
        } catch (BrokerCannotTell e) {
            if (settings.confirmByAge().isPresent() && e.allowsConfirmationByAge()) {
                return Set.of(); // the window by age alone, as configured for a broker the view cannot see
            }
            throw new NoLook(String.valueOf(e.getMessage()));
        }
    }

    /** The broker cannot be looked at for re-sends: expired IDs wait for a later run. */
    private static final class NoLook extends Exception {
        private static final long serialVersionUID = 1L;

        NoLook(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * When this run last finished a step: one of its transactions or a look at the broker. A long run
     * over a large table keeps stepping; one that hangs (a lock never granted, a broker that never
     * answers) does not.
     */
    Instant lastStep() {
        return lastStep;
    }

    private void stepped() {
        lastStep = clock.instant();
    }

    private void lockHeld(Duration held) {
        if (held.compareTo(longestLockHold) > 0) {
            longestLockHold = held;
        }
    }

    /** A count older than the dedup window: its message came back since and was handled, or waits long. */
    private void forgetOldInterruptions(String consumer) {
        try {
            ids.forgetInterruptionsBefore(consumer, start.minus(settings.dedupWindow()));
            stepped();
        } catch (RuntimeException e) {
            failedBatches++;
            LOG.warning(() -> "purge could not forget " + consumer + "'s old interruptions, will retry next run: " + e);
        }
    }

    private void count(String consumer) {
        try {
            idTables.put(consumer, ids.count(consumer));
            stepped();
        } catch (RuntimeException e) {
            failedBatches++;
            LOG.warning(() -> "purge could not count " + consumer + "'s IDs, will retry next run: " + e);
        }
    }
}
