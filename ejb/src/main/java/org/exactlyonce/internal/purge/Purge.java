package org.exactlyonce.internal.purge;

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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.consumer.LocalConsumers;
import org.exactlyonce.internal.delivery.DeliveriesInFlight;
import org.exactlyonce.internal.processed.IdTableCounts;
import org.exactlyonce.internal.processed.ProcessedMessage;
import org.exactlyonce.internal.processed.ProcessedMessages;
import org.exactlyonce.internal.telemetry.ConsumerMetrics;

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

    private final Clock clock = Clock.systemUTC();
    private volatile PurgeReport lastRun;
    private volatile PurgeRun running;
    private final Instant created = clock.instant();

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

    /**
     * A run that fails (the database went away under it) is logged and left to the next expiration: a
     * timeout that throws has the container retry it on a schedule of its own, which Open Liberty puts
     * five minutes later, long after the database came back.
     */
    @Timeout
    void onTimer() {
        try {
            purgeNow();
        } catch (RuntimeException e) {
            LOG.warning(() -> "purge run failed; the next one starts in " + settings.interval() + ": " + e);
        }
    }

    /** Runs a purge now; a run already going on finishes first. */
    public synchronized PurgeReport purgeNow() {
        consumers.adoptPreviousNames(); // before the look: an adopted ID is judged under its new name
        Set<String> deployed = consumers.names();
        PurgeRun run = new PurgeRun(new ProcessedIds(), broker, settings, clock);
        running = run;
        PurgeReport report;
        try {
            report = run.over(
                    deployed, consumer -> consumers.destinationOf(consumer).map(Purge::source));
            lastRun = report; // before the run stops counting as running: lastActivity never goes back
        } finally {
            running = null;
        }
        for (String consumer : deployed) {
            metrics.purgeCouldNotConfirm(consumer, report.unconfirmable().containsKey(consumer));
        }
        report.idTables().forEach(metrics::idTableCounted);
        LOG.info(report::summary);
        return report;
    }

    /**
     * When the purge last showed that it works: a step of the run going on (each of its transactions and
     * looks at the broker), else the end of the last run, else this server's start. A run over a large
     * table takes many intervals and keeps stepping; a stuck one stops.
     */
    public Instant lastActivity() {
        PurgeRun run = running;
        if (run != null) {
            return run.lastStep();
        }
        return lastRun().map(report -> report.startedAt().plus(report.took())).orElse(created);
    }

    public Optional<PurgeReport> lastRun() {
        return Optional.ofNullable(lastRun);
    }

    /** How often the timer runs the purge ({@code exactlyonce.purge.interval}). */
    public Duration interval() {
        return settings.interval();
    }

    private static PurgeRun.Source source(ConsumerDestination destination) {
        return new PurgeRun.Source(destination.destination(), destination.kind() == ConsumerDestination.Kind.TOPIC);
    }

    /** The ID table through the enterprise bean, its deletions under the in-flight registry's lock. */
    private final class ProcessedIds implements PurgeRun.IdTable {

        @Override
        public List<Candidate> unconfirmed(
                String consumer, Set<String> brokers, Instant processedBefore, String afterId, int limit) {
            return processedMessages.unconfirmed(consumer, brokers, processedBefore, afterId, limit).stream()
                    .map(message -> new Candidate(message.messageId(), message.jmsMessageId()))
                    .toList();
        }

        @Override
        public List<String> unconfirmedBefore(
                String consumer, Set<String> exceptBrokers, Instant processedBefore, int limit) {
            return processedMessages.unconfirmedBefore(consumer, exceptBrokers, processedBefore, limit).stream()
                    .map(ProcessedMessage::messageId)
                    .toList();
        }

        @Override
        public Map<String, Long> unconfirmedOfOtherBrokers(String consumer, Set<String> brokers) {
            return processedMessages.unconfirmedOfOtherBrokers(consumer, brokers);
        }

        @Override
        public int forgetInterruptionsBefore(String consumer, Instant before) {
            return processedMessages.forgetInterruptionsBefore(consumer, before);
        }

        @Override
        public int markAcknowledged(String consumer, Collection<String> messageIds, Instant now) {
            int confirmed = processedMessages.markAcknowledged(consumer, messageIds, now);
            if (confirmed > 0) {
                steps.fire(ProtocolStep.ofPurge(Step.PURGE_CONFIRMED, consumer));
            }
            return confirmed;
        }

        @Override
        public List<PurgeRun.Acknowledged> acknowledgedUntil(
                String consumer, Instant cutoff, Optional<PurgeRun.Acknowledged> after, int limit) {
            return processedMessages
                    .acknowledgedUntil(
                            consumer,
                            cutoff,
                            after.map(PurgeRun.Acknowledged::at),
                            after.map(PurgeRun.Acknowledged::messageId).orElse(""),
                            limit)
                    .stream()
                    .map(row -> new PurgeRun.Acknowledged(
                            row.messageId(), row.acknowledgedAt().orElseThrow()))
                    .toList();
        }

        @Override
        public int deleteAcknowledged(String consumer, List<String> messageIds, Instant cutoff) {
            return processedMessages.deleteAcknowledged(
                    consumer, messageIds, cutoff, delete -> inFlight.whileNoneBegins(consumer, delete));
        }

        @Override
        public IdTableCounts count(String consumer) {
            return processedMessages.count(consumer);
        }
    }
}
