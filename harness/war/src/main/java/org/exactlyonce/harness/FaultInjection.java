package org.exactlyonce.harness;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.ws.rs.BadRequestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;

/**
 * Failures, delays and crashes on demand, to show (and test) that every message still has exactly
 * one effect. Off unless the server sets {@code ledger.fault-injection.enabled=true}: a production
 * server never fails or halts because a message or a request asked it to.
 */
@ApplicationScoped
public class FaultInjection {

    private static final Logger LOG = Logger.getLogger(FaultInjection.class.getName());

    /** Held by the thread that halts the server, for good: subscribers reach a step at the same moment. */
    private static final Object HALTING = new Object();

    /** Exit status of a halted server, as after {@code kill -9}. */
    private static final int KILLED = 137;

    @Inject
    @ConfigProperty(name = "ledger.fault-injection.enabled", defaultValue = "false")
    boolean enabled;

    /** Where a message's crash is remembered, so its redelivery after the restart does not crash again. */
    @Inject
    @ConfigProperty(name = "ledger.fault-injection.marker-dir", defaultValue = "fault-injection")
    String markerDir;

    /** Attempts that failed as deadlocks, per message ID. */
    private final Map<String, AtomicInteger> deadlocks = new ConcurrentHashMap<>();

    /** A step at which the next delivery or purge halts the server; a restart forgets it. */
    private final AtomicReference<Step> armed = new AtomicReference<>();

    /** Whether this server's purge deletions fail, while another server's purge is armed to halt in one. */
    private volatile boolean purgeDeletionsHeld;

    /**
     * Refuses a request that needs fault injection on a server without it.
     *
     * @throws BadRequestException unless the server enables fault injection
     */
    void refuseUnlessEnabled() {
        if (!enabled) {
            throw new BadRequestException("fault injection is disabled on this server");
        }
    }

    /** Halts the server the next time any delivery or purge reaches the step. */
    void arm(Step step) {
        armed.set(step);
        LOG.warning(() -> "fault injection: the server halts at the next " + step);
    }

    /**
     * Makes every purge deletion on this server fail and roll back, or lets them be again: where several
     * servers purge one table, the one armed to halt in a deletion then finds the IDs to delete (they go
     * to whichever purge comes first, and one server may lose every race). A restart forgets it.
     */
    void holdPurgeDeletions(boolean held) {
        purgeDeletionsHeld = held;
        LOG.warning(() -> "fault injection: this server's purge deletions " + (held ? "fail" : "go on again"));
    }

    /**
     * Fails the first attempts of a message as deadlocks, its first deliveries, or every delivery until
     * the time it names, as many as it asks for, after the delay it asks for.
     */
    void failOrDelayIfAsked(TestCredit credit, Message message)
            throws JMSException, InterruptedException, SQLException {
        if (enabled && credit.faults() != null) {
            Thread.sleep(credit.faults().processMillis());
            failAsADeadlockIfAsked(credit);
            int delivery = message.getIntProperty("JMSXDeliveryCount");
            if (System.currentTimeMillis() < credit.faults().failUntilEpochMilli()) {
                throw new IllegalStateException("fault injection: message " + credit.messageId() + " fails until "
                        + Instant.ofEpochMilli(credit.faults().failUntilEpochMilli()));
            }
            if (delivery <= credit.faults().failDeliveries()) {
                throw new IllegalStateException("fault injection: delivery " + delivery + " of message "
                        + credit.messageId() + " fails as asked");
            }
        }
    }

    private void failAsADeadlockIfAsked(TestCredit order) throws SQLException {
        if (order.faults().deadlocks() == 0) {
            return;
        }
        int attempt = deadlocks
                .computeIfAbsent(order.messageId(), id -> new AtomicInteger())
                .incrementAndGet();
        if (attempt <= order.faults().deadlocks()) {
            throw new SQLTransactionRollbackException(
                    "fault injection: attempt " + attempt + " of message " + order.messageId() + " deadlocks", "40001");
        }
    }

    /**
     * Every exactly-once consumer's delivery, the sample's among them, meets its credit's faults where
     * the engine is about to process it, and halts at the step it names.
     */
    void onStep(@Observes ProtocolStep reached) throws Exception {
        if (!enabled) {
            return;
        }
        Optional<TestCredit> credit = reached.message() == null ? Optional.empty() : TestCredit.in(reached.message());
        if (reached.step() == Step.BEFORE_PROCESS && credit.isPresent()) {
            failOrDelayIfAsked(credit.get(), reached.message());
        }
        reached(reached.step(), reached.consumer(), reached.messageId(), credit);
    }

    /**
     * Halts the JVM, as {@code kill -9} would, when the step is armed, or when it is the one a message's
     * credit names, the first time that message reaches it (or every time, where it asks so) and after
     * the pause it asks for (during which the delivery is in flight).
     *
     * @param credit the delivered message's credit; empty for the purge's and the outbox's steps
     */
    void reached(Step step, String consumer, String messageId, Optional<TestCredit> credit) throws Exception {
        if (!enabled) {
            return;
        }
        if (armed.compareAndSet(step, null)) {
            halt(step, consumer + (messageId == null ? "" : " message " + messageId));
        }
        if (step == Step.PURGE_DELETING && purgeDeletionsHeld) { // in the deletion's transaction: undone
            throw new IllegalStateException("fault injection: purge deletions are held on this server");
        }
        Optional<TestCredit.Faults> faults = credit.map(TestCredit::faults);
        if (faults.isPresent()
                && step.name().equals(faults.get().crashAt())
                && (faults.get().crashEveryDelivery() || firstCrash(consumer, messageId, step))) {
            Thread.sleep(faults.get().pauseMillis());
            halt(step, consumer + " message " + messageId);
        }
    }

    /**
     * Halts the JVM, after writing the step to the marker directory's {@code halted} file: the test that
     * armed it reads there that the server went down at that step, not for another reason. A halt leaves
     * no log line it could rely on (the log's writer may not have flushed).
     */
    private void halt(Step step, String what) throws IOException {
        LOG.severe(() -> "fault injection: halting the server at " + step + " of " + what);
        synchronized (HALTING) { // one thread writes and halts: another's write would truncate the file under it
            Path halted = Path.of(markerDir).resolve("halted");
            Files.createDirectories(halted.getParent());
            Files.writeString(halted, step.name());
            Runtime.getRuntime().halt(KILLED);
        }
    }

    private boolean firstCrash(String consumer, String messageId, Step step) throws IOException {
        String name = consumer + "-" + messageId + "-" + step;
        Path marker = Path.of(markerDir).resolve(name.replaceAll("[^A-Za-z0-9._-]", "_"));
        if (Files.exists(marker)) {
            return false;
        }
        Files.createDirectories(marker.getParent());
        Files.createFile(marker);
        return true;
    }
}
