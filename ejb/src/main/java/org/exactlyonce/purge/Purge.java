package org.exactlyonce.purge;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.exactlyonce.broker.BrokerCannotTell;
import org.exactlyonce.broker.BrokerView;
import org.exactlyonce.broker.BrokerView.Candidate;
import org.exactlyonce.consume.ConsumerDestination;
import org.exactlyonce.consume.DeliveriesInFlight;
import org.exactlyonce.consume.LocalConsumers;
import org.exactlyonce.processed.IdTableCounts;
import org.exactlyonce.processed.ProcessedMessage;
import org.exactlyonce.processed.ProcessedMessages;
import org.exactlyonce.processed.ProcessedMessages.DeletedBatch;
import org.exactlyonce.protocol.ProtocolStep;
import org.exactlyonce.protocol.ProtocolStep.Step;
import org.exactlyonce.telemetry.ConsumerMetrics;

/**
 * Deletes processed IDs that can no longer matter, on a timer: first it confirms, against the broker,
 * which unconfirmed IDs' messages are gone from their queues (acknowledged); then it deletes IDs
 * acknowledged longer ago than the dedup window; last it counts what is left, the figure the console
 * shows. Each batch is its own short transaction. When the broker cannot be asked, IDs stay
 * unconfirmed: an ID is never deleted while its message may still be redelivered — unless {@code
 * exactlyonce.purge.confirm-by-age} is set, which bets on an ID's age instead (never when the broker is
 * known to hold messages it cannot list). Several servers may purge one table at once; every step is
 * idempotent.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Purge {

    private static final Logger LOG = Logger.getLogger(Purge.class.getName());

    @Resource
    TimerService timers;

    @EJB
    ProcessedMessages processedMessages;

    @Inject
    BrokerView broker;

    @Inject
    LocalConsumers consumers;

    @Inject
    DeliveriesInFlight inFlight;

    @Inject
    PurgeSettings settings;

    @Inject
    Event<ProtocolStep> steps;

    @Inject
    ConsumerMetrics metrics;

    /**
     * How many pages of IDs one look at the broker serves. A look lists the queue's messages in flight
     * and browses the whole queue, so it costs in proportion to the queue's depth, not to the page.
     */
    private static final int PAGES_PER_LOOK = 50;

    private final Clock clock = Clock.systemUTC();
    private volatile PurgeReport lastRun;

    /** Refuses to start on unsafe settings, so the deployment fails with the reason. */
    @PostConstruct
    void schedule() {
        List<String> problems = settings.problems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("exactly-once purge cannot start: " + String.join("; ", problems));
        }
        long interval = settings.interval().toMillis();
        // not persistent: every server schedules its own purge at start, no timer database needed
        timers.createIntervalTimer(interval, interval, new TimerConfig("exactly-once purge", false));
        LOG.info(() -> "purge scheduled every " + settings.interval() + ", dedup window " + settings.dedupWindow()
                + ", grace period " + settings.gracePeriod() + ", batches of " + settings.batchSize()
                + settings.confirmByAge()
                        .map(age -> ", IDs no broker can be asked about taken as acknowledged after " + age)
                        .orElse(""));
    }

    @Timeout
    void onTimer() {
        purgeNow();
    }

    /** Runs a purge now; a run already going on finishes first. */
    public synchronized PurgeReport purgeNow() {
        Instant start = clock.instant();
        Tally tally = new Tally();
        Map<String, List<String>> unconfirmable = new TreeMap<>();
        for (String consumer : consumers.names()) {
            List<String> reasons = confirm(consumer, start, tally);
            if (!reasons.isEmpty()) {
                unconfirmable.put(consumer, reasons);
            }
            metrics.purgeCouldNotConfirm(consumer, !reasons.isEmpty());
            deleteExpired(consumer, start, tally);
            count(consumer, tally);
        }
        PurgeReport report = new PurgeReport(
                start,
                Duration.between(start, clock.instant()),
                tally.longestLockHold,
                tally.confirmed,
                tally.confirmedByAge,
                tally.keptPending,
                tally.deleted,
                tally.failedBatches,
                unconfirmable,
                tally.idTables);
        LOG.info(report::summary);
        lastRun = report;
        return report;
    }

    public Optional<PurgeReport> lastRun() {
        return Optional.ofNullable(lastRun);
    }

    /**
     * Confirms the consumer's IDs whose messages have left its queue, or its topic's subscriptions, on
     * this server's broker.
     *
     * @return why some of its IDs could not be confirmed: the broker cannot tell, or other brokers
     *     delivered them
     */
    private List<String> confirm(String consumer, Instant now, Tally tally) {
        Optional<ConsumerDestination> destination = consumers.destinationOf(consumer);
        if (destination.isEmpty()) {
            return List.of("no delivery has recorded the destination it reads yet");
        }
        String brokerName;
        try {
            brokerName = broker.broker();
        } catch (BrokerCannotTell e) {
            confirmByAge(consumer, Optional.empty(), now, tally); // no view can tell: at most their age
            return List.of(String.valueOf(e.getMessage()));
        }
        confirmByAge(consumer, Optional.of(brokerName), now, tally);
        List<String> reasons = new ArrayList<>(elsewhere(consumer, brokerName));
        confirmOnBroker(consumer, brokerName, destination.get(), now, tally).ifPresent(reasons::add);
        return reasons;
    }

    /**
     * Takes as acknowledged the unconfirmed IDs older than {@code exactlyonce.purge.confirm-by-age}, when
     * it is set, that no view could be asked about: of every broker, or of brokers other than the one given.
     */
    private void confirmByAge(String consumer, Optional<String> exceptBroker, Instant now, Tally tally) {
        if (settings.confirmByAge().isEmpty()) {
            return;
        }
        Instant processedBefore = now.minus(settings.confirmByAge().get());
        try {
            List<String> old;
            do {
                old =
                        processedMessages
                                .unconfirmedBefore(consumer, exceptBroker, processedBefore, settings.batchSize())
                                .stream()
                                .map(ProcessedMessage::messageId)
                                .toList();
                tally.confirmedByAge += processedMessages.markAcknowledged(consumer, old, now);
            } while (old.size() == settings.batchSize());
        } catch (RuntimeException e) {
            tally.failedBatches++;
            LOG.warning(() -> "purge could not confirm " + consumer + "'s old IDs by age, will retry next run: " + e);
        }
    }

    /** The consumer's unconfirmed IDs that other brokers delivered, which this server cannot confirm. */
    private List<String> elsewhere(String consumer, String brokerName) {
        try {
            List<String> reasons = new ArrayList<>();
            processedMessages
                    .unconfirmedOfOtherBrokers(consumer, brokerName)
                    .forEach((other, ids) -> reasons.add(ids + " unconfirmed IDs from "
                            + (other == null ? "a broker that did not name itself" : "broker " + other)
                            + ": this server sees broker " + brokerName));
            return reasons;
        } catch (RuntimeException e) {
            return List.of("its IDs of other brokers could not be counted: " + e);
        }
    }

    private Optional<String> confirmOnBroker(
            String consumer, String brokerName, ConsumerDestination destination, Instant now, Tally tally) {
        Instant processedBefore = now.minus(settings.gracePeriod());
        String after = "";
        try {
            List<ProcessedMessage> candidates;
            do {
                candidates = unconfirmed(consumer, brokerName, processedBefore, after);
                if (candidates.isEmpty()) {
                    break;
                }
                // the candidates were committed before the broker is asked: what it no longer has was acknowledged
                Set<String> pending = destination.kind() == ConsumerDestination.Kind.TOPIC
                        ? broker.stillOnTopic(destination.destination(), asked(candidates))
                        : broker.stillOnQueue(destination.destination(), asked(candidates));
                List<String> gone = candidates.stream()
                        .map(ProcessedMessage::messageId)
                        .filter(id -> !pending.contains(id))
                        .toList();
                markAcknowledged(consumer, gone, now, tally);
                tally.keptPending += pending.size();
                after = candidates.get(candidates.size() - 1).messageId();
            } while (candidates.size() == settings.batchSize() * PAGES_PER_LOOK);
            return Optional.empty();
        } catch (BrokerCannotTell e) {
            // the broker cannot tell: keep every unconfirmed ID, which is always safe, or go by age if configured
            if (e.allowsConfirmationByAge()) {
                confirmByAge(consumer, Optional.empty(), now, tally);
            }
            return Optional.of(String.valueOf(e.getMessage()));
        } catch (RuntimeException e) {
            tally.failedBatches++;
            LOG.warning(() -> "purge kept " + consumer + "'s unconfirmed IDs, will retry next run: " + e);
            return Optional.of(String.valueOf(e.getMessage()));
        }
    }

    private static List<Candidate> asked(List<ProcessedMessage> candidates) {
        return candidates.stream()
                .map(message -> new Candidate(message.messageId(), message.jmsMessageId()))
                .toList();
    }

    /** Up to {@link #PAGES_PER_LOOK} pages of unconfirmed IDs after the given one, in ID order. */
    private List<ProcessedMessage> unconfirmed(
            String consumer, String brokerName, Instant processedBefore, String after) {
        List<ProcessedMessage> candidates = new ArrayList<>();
        List<ProcessedMessage> page;
        do {
            page = processedMessages.unconfirmed(consumer, brokerName, processedBefore, after, settings.batchSize());
            candidates.addAll(page);
            after = page.isEmpty() ? after : page.get(page.size() - 1).messageId();
        } while (page.size() == settings.batchSize() && candidates.size() < settings.batchSize() * PAGES_PER_LOOK);
        return candidates;
    }

    private void markAcknowledged(String consumer, List<String> gone, Instant now, Tally tally) {
        for (int from = 0; from < gone.size(); from += settings.batchSize()) {
            List<String> batch = gone.subList(from, Math.min(gone.size(), from + settings.batchSize()));
            int confirmed = processedMessages.markAcknowledged(consumer, batch, now);
            if (confirmed > 0) {
                steps.fire(ProtocolStep.ofPurge(Step.PURGE_CONFIRMED, consumer));
            }
            tally.confirmed += confirmed;
        }
    }

    private void deleteExpired(String consumer, Instant now, Tally tally) {
        Instant cutoff = now.minus(settings.dedupWindow());
        try {
            DeletedBatch batch = new DeletedBatch(0, 0, "");
            do {
                String after = batch.lastId();
                long began = System.nanoTime(); // taking the lock waits at most for a delivery's registration
                batch = inFlight.whileNoneBegins(
                        consumer,
                        spared -> processedMessages.deleteAcknowledgedUntil(
                                consumer, cutoff, after, settings.batchSize(), spared));
                tally.lockHeld(Duration.ofNanos(System.nanoTime() - began));
                tally.deleted += batch.deleted();
            } while (batch.selected() == settings.batchSize());
        } catch (Exception e) {
            // a concurrent purge on another server may hold the same rows: they go next run
            tally.failedBatches++;
            LOG.warning(() -> "purge of " + consumer + "'s acknowledged IDs stopped, will retry next run: " + e);
        }
    }

    private void count(String consumer, Tally tally) {
        try {
            IdTableCounts counts = processedMessages.count(consumer);
            tally.idTables.put(consumer, counts);
            metrics.idTableCounted(consumer, counts);
        } catch (RuntimeException e) {
            tally.failedBatches++;
            LOG.warning(() -> "purge could not count " + consumer + "'s IDs, will retry next run: " + e);
        }
    }

    /** Counts of one run. */
    private static final class Tally {
        int confirmed;
        int confirmedByAge;
        int keptPending;
        int deleted;
        int failedBatches;
        Duration longestLockHold = Duration.ZERO;
        final Map<String, IdTableCounts> idTables = new TreeMap<>();

        void lockHeld(Duration held) {
            if (held.compareTo(longestLockHold) > 0) {
                longestLockHold = held;
            }
        }
    }
}
