package org.exactlyonce.outbox;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.broker.BrokerConnections;
import org.exactlyonce.consume.MessageIds;
import org.exactlyonce.consume.ProtocolStep;
import org.exactlyonce.consume.ProtocolStep.Step;
import org.exactlyonce.message.MessageCopies;

/**
 * Sends what the outbox holds: right after a transaction that wrote to it commits, and every {@code
 * exactlyonce.outbox.relay-interval} for what is left (a failed send, a server that stopped before
 * sending). One run at a time per server; across servers, a lease per destination lets one relay send
 * its messages, oldest first. A message is deleted after the broker took it, so a relay that stops in
 * between leaves it to be sent again, with the same ID. Outside any transaction: the sends must not
 * join one, and each delete commits on its own.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class.getName());

    private static final String SWEEP = "exactly-once outbox sweep";
    private static final String RUN = "exactly-once outbox relay";

    /** Time between two looks for messages no commit announced: failed sends, another server's. */
    @Inject
    @ConfigProperty(name = "exactlyonce.outbox.relay-interval", defaultValue = "PT5S")
    Duration relayInterval;

    /** Messages read and sent per round trip to the database, and per lease renewal. */
    @Inject
    @ConfigProperty(name = "exactlyonce.outbox.batch-size", defaultValue = "100")
    int batchSize;

    /**
     * How long a relay holds a destination without renewing its lease; after that, another server's
     * relay may take over, sending again what the first had sent but not yet deleted.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.outbox.lease", defaultValue = "PT30S")
    Duration lease;

    @Resource
    TimerService timers;

    @Inject
    OutboxTable table;

    @Inject
    BrokerConnections connections;

    @Inject
    MessageIds messageIds;

    @Inject
    Event<ProtocolStep> steps;

    private final Clock clock = Clock.systemUTC();
    private final String holder = UUID.randomUUID().toString();
    private final AtomicBoolean requested = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();
    private volatile String lastProblem;

    @PostConstruct
    void start() {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the outbox's relay cannot start: " + String.join("; ", problems));
        }
        timers.createIntervalTimer(relayInterval.toMillis(), relayInterval.toMillis(), new TimerConfig(SWEEP, false));
    }

    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (relayInterval.isNegative() || relayInterval.isZero()) {
            problems.add("exactlyonce.outbox.relay-interval must be positive, is " + relayInterval);
        }
        if (batchSize < 1) {
            problems.add("exactlyonce.outbox.batch-size must be at least 1, is " + batchSize);
        }
        if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
            problems.add("exactlyonce.outbox.lease must be at least PT1S, is " + lease);
        }
        return problems;
    }

    /**
     * Has the relay run as soon as it can; called by the outbox after a commit. Not for applications:
     * public only because an enterprise bean's methods must be.
     */
    public void relaySoon() {
        requested.set(true);
        startIfIdle();
    }

    private void startIfIdle() {
        if (running.compareAndSet(false, true)) {
            try {
                timers.createSingleActionTimer(0, new TimerConfig(RUN, false));
            } catch (RuntimeException e) { // the application stopping: the next start's sweep finds the rows
                running.set(false);
                throw e;
            }
        }
    }

    /** The outbox's figures with this relay's counters; public, as {@link #relaySoon}, for the outbox. */
    public OutboxFigures figures() throws SQLException {
        OutboxFigures waiting = table.figures();
        return new OutboxFigures(
                waiting.backlog(),
                waiting.backlogByDestination(),
                waiting.oldestWritten(),
                waiting.failing(),
                sent.get(),
                sendFailures.get());
    }

    @Timeout
    void onTimer(Timer timer) {
        if (SWEEP.equals(timer.getInfo())) {
            relaySoon();
            return;
        }
        try {
            while (requested.getAndSet(false)) {
                relayAll();
            }
        } finally {
            running.set(false);
            if (requested.get()) {
                startIfIdle();
            }
        }
    }

    private void relayAll() {
        try {
            boolean allSent = true;
            for (Target target : table.destinations()) {
                if (table.lease(target, holder, clock.instant(), clock.instant().plus(lease))) {
                    try {
                        allSent &= relay(target);
                    } finally {
                        table.release(target, holder);
                    }
                }
            }
            if (allSent) {
                lastProblem = null;
            }
        } catch (SQLException | JMSException | JMSRuntimeException e) {
            report("the outbox's relay stopped (the database or the broker failed; without the EO_OUTBOX tables"
                    + " of src/ddl it always does) and tries again in " + relayInterval + ": " + e);
        }
    }

    /**
     * Sends a destination's messages in order, until none is left or one fails.
     *
     * @return false when one failed
     */
    private boolean relay(Target target) throws SQLException, JMSException {
        try (JMSContext jms = connections.connectionFactory().createContext()) {
            Destination destination;
            try {
                destination = target.resolve(jms);
            } catch (JMSRuntimeException e) { // Artemis refuses to name a queue it does not have
                List<OutboxRow> first = table.next(target, 1);
                if (!first.isEmpty()) {
                    failed(target, first.get(0), e);
                }
                return false;
            }
            List<OutboxRow> rows;
            do {
                rows = table.next(target, batchSize);
                List<Long> sent = new ArrayList<>();
                for (OutboxRow row : rows) {
                    try {
                        send(row, destination, jms);
                        sent.add(row.id());
                    } catch (JMSException | JMSRuntimeException e) {
                        forget(target, sent, rows);
                        failed(target, row, e);
                        return false;
                    }
                }
                forget(target, sent, rows);
            } while (rows.size() == batchSize
                    && table.lease(
                            target, holder, clock.instant(), clock.instant().plus(lease)));
        }
        return true;
    }

    private void send(OutboxRow row, Destination destination, JMSContext jms) throws JMSException {
        Message message = MessageCopies.rebuild(row, jms);
        message.setStringProperty(messageIds.propertyForOutgoing(), row.messageId());
        MessageCopies.producerFor(row, jms).send(destination, message);
    }

    /** Deletes what the broker took: from here on a stop no longer sends it again. */
    private void forget(Target target, List<Long> sent, List<OutboxRow> rows) throws SQLException {
        if (sent.isEmpty()) {
            return;
        }
        String lastSent = rows.get(sent.size() - 1).messageId();
        steps.fire(new ProtocolStep(Step.OUTBOX_SENT, target.key(), lastSent, null));
        table.sent(sent);
        this.sent.addAndGet(sent.size());
    }

    private void failed(Target target, OutboxRow row, Exception failure) throws SQLException {
        sendFailures.incrementAndGet();
        String reason = reasonOf(failure);
        table.failed(row.id(), reason, clock.instant());
        report("outbox message " + row.messageId() + " for " + target + " could not be sent, is kept and"
                + " tried again in " + relayInterval + " (with the messages after it): " + reason);
    }

    /** The failure's message and its causes': a provider's own message is often only "failed to send". */
    private static String reasonOf(Exception failure) {
        StringBuilder reason = new StringBuilder();
        Throwable each = failure;
        for (int depth = 0; each != null && depth < 5; depth++) {
            reason.append(reason.isEmpty() ? "" : ": ").append(each.getMessage() == null ? each : each.getMessage());
            each = each.getCause() != null
                    ? each.getCause()
                    : each instanceof JMSException jms ? jms.getLinkedException() : null;
        }
        return reason.toString();
    }

    /** Logs a problem once, not at every run while it lasts. */
    private void report(String problem) {
        if (!problem.equals(lastProblem)) {
            LOG.log(Level.WARNING, problem);
        }
        lastProblem = problem;
    }
}
