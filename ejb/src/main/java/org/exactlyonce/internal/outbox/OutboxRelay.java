package org.exactlyonce.internal.outbox;

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
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.delivery.MessageIds;
import org.exactlyonce.internal.message.MessageCopies;

/**
 * Sends what the outbox holds: right after a transaction that wrote to it commits, and every {@code
 * exactlyonce.outbox.relay-interval} for what is left (a failed send, a server that stopped before
 * sending). One run at a time per server; across servers, a lease per destination lets one relay send
 * its messages, oldest first. A batch of messages is sent in one transaction of the broker's alone
 * and deleted after the broker took it, so a relay that stops in between leaves it to be sent again,
 * with the same IDs. The database is never in the broker's transaction: no XA.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
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

    /**
     * The name the relay holds its leases under: the same after a restart of this server, so that it
     * takes its leases back at once and sends again what it had sent when it stopped, and another on
     * every other server relaying the same table. By default the host's name and the server's
     * directory; set it where two servers share both.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.outbox.relay-name")
    Optional<String> relayName;

    @Resource
    TimerService timers;

    @Resource
    UserTransaction transaction;

    @Inject
    OutboxTable table;

    @Inject
    BrokerConnections connections;

    @Inject
    MessageIds messageIds;

    @Inject
    Event<ProtocolStep> steps;

    private final Clock clock = Clock.systemUTC();
    private String holder;
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
        String name = relayName.orElseGet(OutboxRelay::serverName);
        holder = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
        LOG.info(() -> "the outbox's relay holds its leases as " + name + " (" + holder + ")");
        // at once: what this server had sent when it stopped goes again while receivers still know its IDs
        timers.createIntervalTimer(0, relayInterval.toMillis(), new TimerConfig(SWEEP, false));
    }

    /** The host and the server's directory: WildFly's base directory, Liberty's working directory. */
    private static String serverName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + System.getProperty("jboss.server.base.dir", System.getProperty("user.dir"));
    }

    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (relayInterval.toMillis() < 1) { // a timer counts whole milliseconds
            problems.add("exactlyonce.outbox.relay-interval must be at least 1 ms, is " + relayInterval);
        }
        if (batchSize < 1) {
            problems.add("exactlyonce.outbox.batch-size must be at least 1, is " + batchSize);
        }
        if (relayName.isPresent() && relayName.get().isBlank()) {
            problems.add("exactlyonce.outbox.relay-name must not be blank");
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
        } catch (SQLException e) {
            report("the outbox's relay stopped (the database failed; without the EO_OUTBOX tables"
                    + " of src/ddl it always does) and tries again in " + relayInterval + ": " + e);
        }
    }

    /**
     * Sends a destination's messages in order, a batch at a time, until none is left or a batch fails;
     * each batch right after the lease is renewed, so that a relay that lost it sends nothing more.
     *
     * @return false when one failed
     */
    private boolean relay(Target target) throws SQLException {
        List<OutboxRow> rows;
        do {
            rows = table.next(target, batchSize);
            if (rows.isEmpty()) {
                return true;
            }
            if (!table.lease(target, holder, clock.instant(), clock.instant().plus(lease))) {
                // stalled past the lease (a pause of the JVM, a slow database) while another relay took
                // the destination: it sends these rows, in order; sending them here too would repeat them
                int unsent = rows.size();
                LOG.warning(() -> "the outbox's relay lost its lease on " + target + " before it sent " + unsent
                        + " messages, which the relay holding it sends instead");
                return true;
            }
            Optional<RefusedSend> refused = sendTogether(target, rows);
            if (refused.isPresent()) {
                sendThoseBefore(refused.get().row(), target, rows);
                failed(target, refused.get().row(), refused.get().failure());
                return false;
            }
            forget(target, rows);
        } while (rows.size() == batchSize);
        return true;
    }

    /** The messages before a refused one go, as they would have without it; those after it wait. */
    private void sendThoseBefore(OutboxRow refused, Target target, List<OutboxRow> rows) throws SQLException {
        List<OutboxRow> before = rows.subList(0, rows.indexOf(refused));
        if (!before.isEmpty() && sendTogether(target, before).isEmpty()) {
            forget(target, before);
        }
    }

    /** A message the broker did not take, and why; the messages after it in its batch were not sent either. */
    private record RefusedSend(OutboxRow row, Exception failure) {}

    /**
     * Sends the rows in one JTA transaction whose only resource is the broker, committed in one phase
     * (the database is not in it): the broker takes the batch whole or not at all, and writes it once
     * instead of once per message.
     *
     * @return the message the broker refused (the first, when the commit failed); empty when it took all
     */
    private Optional<RefusedSend> sendTogether(Target target, List<OutboxRow> rows) {
        OutboxRow current = rows.get(0);
        try {
            transaction.begin();
            try (JMSContext jms = connections.connectionFactory().createContext()) {
                Destination destination = target.resolve(jms); // Artemis refuses to name a queue it lacks
                for (OutboxRow row : rows) {
                    current = row;
                    send(row, destination, jms);
                }
            }
            current = rows.get(0);
            transaction.commit();
            return Optional.empty();
        } catch (Exception e) { // whatever the broker or the transaction manager throws: kept with the row
            rollBackIfActive(e);
            return Optional.of(new RefusedSend(current, e));
        }
    }

    private void rollBackIfActive(Exception failure) {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (SystemException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private void send(OutboxRow row, Destination destination, JMSContext jms) throws JMSException {
        Message message = MessageCopies.rebuild(row, jms);
        message.setStringProperty(messageIds.propertyForOutgoing(), row.messageId());
        MessageCopies.producerFor(row, jms).send(destination, message);
    }

    /** Deletes what the broker took: from here on a stop no longer sends it again. */
    private void forget(Target target, List<OutboxRow> sent) throws SQLException {
        steps.fire(new ProtocolStep(
                Step.OUTBOX_SENT, target.key(), sent.get(sent.size() - 1).messageId(), null));
        table.sent(sent.stream().map(OutboxRow::id).toList());
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
