package org.exactlyonce.internal.delivery;

import jakarta.jms.Message;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.consumer.ConsumerNameClash;
import org.exactlyonce.internal.outage.TransientDatabaseFailure;
import org.exactlyonce.internal.park.ParkedRows;
import org.exactlyonce.internal.processed.IdRows;
import org.exactlyonce.internal.processed.IdRows.IdRow;
import org.exactlyonce.internal.processed.ProcessedMessages.Duplicate;
import org.exactlyonce.internal.telemetry.Outcome;

/**
 * The protocol for one message, written once for the message-driven bean and the batched receiver: in
 * one transaction, insert the message's ID, process the message and commit; then the caller lets the
 * message be acknowledged. An ID found in the table is a duplicate, dropped (or parked when its payload
 * differs); a bad message, or one whose processing keeps failing, is parked; any other failure rolls
 * back and hands the message back to the broker. Transactions come from a {@link Transactions}, and
 * transient database failures are retried by one {@link DatabaseRetry}.
 */
public final class Delivery {

    private static final Logger LOG = Logger.getLogger(Delivery.class.getName());

    private final String consumer;
    private final Transactions transactions;
    private final DatabaseRetry retry;
    private final ParkingRule parkingRule;
    private final CrashGuard crashGuard;
    private final Consumer<ProtocolStep> steps;
    private final BiConsumer<String, Outcome> counted;
    private final Clock clock;
    private final IdRows idRows = new IdRows();

    /**
     * @param steps told of each point of the protocol, on the delivering thread; what it throws fails the
     *     message, as processing would
     * @param counted told of each message's outcome
     */
    public Delivery(
            String consumer,
            Transactions transactions,
            DatabaseRetry retry,
            ParkingRule parkingRule,
            CrashGuard crashGuard,
            Consumer<ProtocolStep> steps,
            BiConsumer<String, Outcome> counted,
            Clock clock) {
        this.consumer = consumer;
        this.transactions = transactions;
        this.retry = retry;
        this.parkingRule = parkingRule;
        this.crashGuard = crashGuard;
        this.steps = steps;
        this.counted = counted;
        this.clock = clock;
    }

    public String consumer() {
        return consumer;
    }

    /**
     * Delivers a message with a usable ID: processed and committed, dropped as a duplicate, or parked.
     *
     * @param check runs before each attempt, outside its transaction; what it throws is retried like the
     *     attempt when transient, and hands the message back otherwise when it is a {@link
     *     ConsumerNameClash}
     * @return the outcome, counted
     * @throws HandBack when the broker is to redeliver the message, counted as failed
     */
    public Outcome deliver(IdRow row, Check check, Processing processing) throws HandBack {
        Instant began = clock.instant();
        Outcome outcome;
        try {
            int crashes = crashesBefore(row);
            if (crashes > 0) {
                crashGuard.acquireAlone(); // journaled once alone: the next crash counts against this message
            }
            try (CrashJournal.Entry journaled = crashGuard.journal(consumer, row.messageId())) {
                outcome = retry.call(() -> attempt(row, check, processing, crashes))
                        ? Outcome.PROCESSED
                        : recordedBefore(row, began, crashes);
            } finally {
                if (crashes > 0) {
                    crashGuard.release();
                }
            }
        } catch (TransientDatabaseFailure e) {
            throw handBack(
                    consumer + " handed message " + row.messageId()
                            + " back to the broker: the database is unavailable",
                    e);
        } catch (ConsumerNameClash e) { // never processed nor parked under a name another consumer owns
            throw handBack(e.getMessage(), e);
        } catch (InterruptedException e) { // the server stops while the delivery waits: never a reason to park
            Thread.currentThread().interrupt();
            throw handBack(consumer + " was interrupted waiting for the database with message " + row.messageId(), e);
        } catch (CrashesTheServer e) {
            keepOrHandBack(row.messageId(), row.message(), ParkReason.CRASHES_THE_SERVER, e.getMessage());
            forgetInterruptions(row);
            outcome = Outcome.PARKED;
        } catch (Exception e) {
            outcome = parkOrHandBack(row, e);
        }
        counted.accept(consumer, outcome);
        return outcome;
    }

    /**
     * The crashes of the server that interrupted the message's deliveries so far, read where the
     * {@link CrashGuard} suspects some; the consumer's interrupted deliveries are counted first.
     */
    private int crashesBefore(IdRow row) throws Exception {
        if (!crashGuard.isOn()) {
            return 0;
        }
        crashGuard.countInterrupted(
                consumer,
                interrupted -> inTransaction(database -> {
                    InterruptedRows.countCrash(database, consumer, interrupted, clock.instant());
                    return null;
                }));
        return crashGuard.suspect(consumer, row)
                ? outside(database -> InterruptedRows.crashes(database, consumer, row.messageId()))
                : 0;
    }

    /**
     * Whether a crash of the server interrupted an earlier delivery of any of the messages: a batch of
     * them is then delivered one message at a time, each interrupted one alone.
     */
    public boolean anyInterruptedBefore(List<IdRow> rows) throws Exception {
        for (IdRow row : rows) {
            if (crashesBefore(row) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Journals a delivery that this class does not make, a batch's, while it runs (see {@link CrashGuard}). */
    public CrashJournal.Entry journal(String messageId) {
        return crashGuard.journal(consumer, messageId);
    }

    /**
     * Forgets the crashes and failures of a message now handled; a failure to forget costs a count too
     * many, never a message.
     */
    private void forgetInterruptions(IdRow row) {
        try {
            inTransaction(database -> {
                InterruptedRows.forget(database, consumer, row.messageId());
                return null;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, consumer + " could not forget the interruptions of message " + row.messageId(), e);
        } catch (Exception e) {
            LOG.log(Level.WARNING, consumer + " could not forget the interruptions of message " + row.messageId(), e);
        }
    }

    /**
     * Steps 2 to 5: begin, insert the ID, process, commit. A message that crashed the server before
     * has its crashes forgotten in the same transaction, or is parked once they reach the bound.
     *
     * @return true when processed; false when the ID was in the table, or the message parked
     * @throws CrashesTheServer when the message's processing crashed the server as often as allowed
     */
    private boolean attempt(IdRow row, Check check, Processing processing, int crashes) throws Exception {
        check.before(row.message());
        try {
            transactions.inTransaction(database -> {
                if (!idRows.insert(database, consumer, row, clock.instant())) {
                    throw Refused.INSTANCE; // the transaction can only roll back
                }
                if (crashes > 0 && crashes >= crashGuard.crashesBeforeParking()) {
                    throw new CrashesTheServer(crashes, crashGuard.crashesBeforeParking());
                }
                if (crashes > 0 || ParkingRule.isRedelivery(row.message())) { // undone if it crashes once more
                    InterruptedRows.forget(database, consumer, row.messageId()); // its crashes, its failures
                }
                step(Step.BEFORE_PROCESS, row.messageId(), row.message());
                ProcessingError.carried(processing, row.message(), database);
                step(Step.BEFORE_COMMIT, row.messageId(), row.message());
                return null;
            });
        } catch (Refused e) {
            return false;
        }
        step(Step.AFTER_COMMIT, row.messageId(), row.message());
        return true;
    }

    /**
     * A message whose ID the insert found: parked by an earlier delivery (a crash lost the park's
     * acknowledgement), or a duplicate, dropped unless its payload differs from the one processed.
     */
    private Outcome recordedBefore(IdRow row, Instant began, int crashes) throws Exception {
        if (crashes > 0) {
            forgetInterruptions(row);
        }
        if (parkedBefore(row.message())) {
            LOG.fine(() -> consumer + " acknowledges message " + row.messageId() + ", parked on an earlier delivery");
            return Outcome.PARKED;
        }
        Duplicate duplicate =
                outside(database -> IdRows.earlierDelivery(database, consumer, row.messageId(), row.message(), began));
        if (duplicate == Duplicate.CONFLICTING_PAYLOAD) {
            keep(
                    row.messageId(),
                    row.message(),
                    ParkReason.ID_REUSED,
                    "its ID was processed before with another payload: the producer reuses IDs");
            return Outcome.DUPLICATE_CONFLICT;
        }
        Outcome outcome =
                duplicate == Duplicate.LOST_RACE ? Outcome.DUPLICATE_LOST_RACE : Outcome.DUPLICATE_ALREADY_COMMITTED;
        LOG.fine(() -> consumer + " dropped a duplicate of message " + row.messageId() + " (" + outcome.label() + ")");
        return outcome;
    }

    /**
     * After a failure: parks a bad or poison message, or hands it back to the broker. The delivery's
     * number is the broker's count or the failures the table counted, whichever is higher: Artemis starts
     * its count again when it moves a message to another node, fails over or restarts, and a poison
     * message must not go round for ever.
     */
    private Outcome parkOrHandBack(IdRow row, Exception failure) throws HandBack {
        int failures = failure instanceof InvalidMessageException ? 0 : countFailure(row);
        int delivery = Math.max(ParkingRule.deliveryCount(row.message()), failures);
        Optional<ParkingRule.Parking> parking = parkingRule.parkingAfter(failure, delivery);
        if (parking.isEmpty()) {
            throw handBack(
                    consumer + " failed to process message " + row.messageId() + " (delivery " + delivery
                            + "): rolled back, the broker will redeliver it",
                    failure);
        }
        keepOrHandBack(
                row.messageId(),
                row.message(),
                parking.get().reason(),
                parking.get().detail());
        if (failures > 0) {
            forgetInterruptions(row);
        }
        return Outcome.PARKED;
    }

    /**
     * Counts the failed delivery in the table, in a transaction of its own.
     *
     * @return the failures counted for the message so far; 0 when they could not be counted, and then the
     *     broker's count alone decides
     */
    private int countFailure(IdRow row) {
        try {
            return inTransaction(
                    database -> InterruptedRows.countFailure(database, consumer, row.messageId(), clock.instant()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (Exception e) {
            LOG.log(
                    Level.WARNING,
                    consumer + " could not count the failed delivery of message " + row.messageId()
                            + "; the broker's delivery count alone decides when it is parked",
                    e);
            return 0;
        }
    }

    /**
     * Parks a message that is not to be processed (it has no usable ID, or is of a type not accepted),
     * and counts it.
     *
     * @param messageId the message's ID; {@code null} when it has no usable one
     * @throws HandBack when it could not be parked
     */
    public void park(String messageId, Message message, ParkReason reason, String detail) throws HandBack {
        keepOrHandBack(messageId, message, reason, detail);
        counted.accept(consumer, Outcome.PARKED);
    }

    private void keepOrHandBack(String messageId, Message message, ParkReason reason, String detail) throws HandBack {
        try {
            keep(messageId, message, reason, detail);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw handBack(consumer + " could not park message " + messageId + ", the broker will redeliver it", e);
        } catch (Exception e) {
            throw handBack(consumer + " could not park message " + messageId + ", the broker will redeliver it", e);
        }
    }

    /**
     * Keeps the message in the parked messages, in a transaction of its own; an earlier delivery whose
     * acknowledgement a crash lost may have parked it already.
     *
     * @throws IllegalStateException when a unique key other than the message's own refused the row
     */
    private void keep(String messageId, Message message, ParkReason reason, String detail) throws Exception {
        try {
            inTransaction(database -> {
                if (!ParkedRows.park(
                        database,
                        consumer,
                        messageId,
                        message,
                        ParkingRule.deliveryCount(message),
                        reason,
                        detail,
                        clock.instant())) {
                    throw Refused.INSTANCE;
                }
                return null;
            });
        } catch (Refused e) {
            if (!parkedBefore(message)) {
                throw new IllegalStateException(consumer + " could not park message " + messageId
                        + ": a unique key other than its own refused the row");
            }
            return; // parked before, by a delivery whose acknowledgement a crash lost
        }
        step(Step.AFTER_PARK, messageId, message);
    }

    private boolean parkedBefore(Message message) throws Exception {
        return !parkedAmong(List.of(message)).isEmpty();
    }

    /** The JMS message IDs of those among the messages that earlier deliveries parked; none asked, no query. */
    public Set<String> parkedAmong(List<Message> messages) throws Exception {
        return messages.isEmpty()
                ? Set.of()
                : outside(database -> ParkedRows.parkedAmong(database, consumer, messages));
    }

    /** Database work in a transaction of its own, retried: a batch's, a park's. */
    public <T> T inTransaction(Transactions.Work<T> work) throws Exception {
        return retry.call(() -> transactions.inTransaction(work));
    }

    /** A read outside any transaction, retried. */
    public <T> T outside(Transactions.Work<T> work) throws Exception {
        return retry.call(() -> transactions.outside(work));
    }

    public void step(Step step, String messageId, Message message) {
        steps.accept(new ProtocolStep(step, consumer, messageId, message));
    }

    public void counted(Outcome outcome) {
        counted.accept(consumer, outcome);
    }

    private HandBack handBack(String why, Throwable cause) {
        counted.accept(consumer, Outcome.FAILED);
        return new HandBack(why, cause);
    }

    /** What runs before each attempt of a delivery, outside its transaction. */
    @FunctionalInterface
    public interface Check {
        void before(Message message) throws Exception;

        Check NONE = message -> {};
    }

    /** The application's effect of one message, in the delivery's transaction. */
    @FunctionalInterface
    public interface Processing {
        void process(Message message, Connection database) throws Exception;
    }

    /** A message that crashed the server as often as allowed: thrown to roll back, and park it. */
    private static final class CrashesTheServer extends Exception {
        private static final long serialVersionUID = 1L;

        CrashesTheServer(int crashes, int bound) {
            super(
                    "the server crashed " + crashes + " times while it processed this message (an OutOfMemoryError,"
                            + " a native crash, System.exit); parked after exactlyonce.crash-guard.crashes-before-parking="
                            + bound + " so that it cannot crash the server again: find the cause in the server's"
                            + " crash logs before a replay",
                    null,
                    false,
                    false);
        }
    }

    /** The ID's insert or the park's found a row there: thrown to roll the transaction back. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        static final Refused INSTANCE = new Refused();

        private Refused() {
            super(null, null, false, false);
        }
    }
}
