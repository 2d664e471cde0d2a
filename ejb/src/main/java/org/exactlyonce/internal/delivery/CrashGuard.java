package org.exactlyonce.internal.delivery;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.exactlyonce.internal.processed.IdRows.IdRow;

/**
 * Bounds a message whose processing crashes the server: an {@code OutOfMemoryError} that halts the
 * JVM, a native crash, a {@code System.exit}. Such a message is redelivered after every restart, and no
 * exception ever reaches the engine, nor a delivery count that survives the restart (Open Liberty's
 * messaging engine and an embedded Artemis start it again at 1).
 *
 * <p>Every delivery is journaled while it runs ({@link CrashJournal}). At its first delivery after a
 * start, each consumer counts one crash, in {@code EO_INTERRUPTED_DELIVERY}, for every message the
 * journal shows in flight when the server went down. A message known to have been interrupted, or that
 * its broker marks as redelivered (another server may have crashed on it), has its crashes read before
 * it is processed: once they reach the bound it is parked as {@link
 * org.exactlyonce.ParkReason#CRASHES_THE_SERVER}. Below it, the message is processed alone among the
 * server's interrupted messages, so that the next crash is counted against it and not against messages
 * that were merely in flight beside it; what runs beside it is counted at most once, and becomes one
 * of the interrupted messages that run alone.
 *
 * <p>An ordinary delivery pays the journal's memory write; a redelivered one also reads its crashes.
 */
public final class CrashGuard {

    /** No journal, no bound: for receivers outside a server, and where {@code crashes-before-parking} is 0. */
    public static final CrashGuard OFF = new CrashGuard(null, 0);

    private final CrashJournal journal;
    private final int crashesBeforeParking;

    /** The IDs the last crash interrupted, by consumer, until the consumer has counted them. */
    private final Map<String, Set<String>> uncounted = new ConcurrentHashMap<>();

    /** Taken by each interrupted message while it is processed. */
    private final Semaphore alone = new Semaphore(1, true);

    private CrashGuard(CrashJournal journal, int crashesBeforeParking) {
        this.journal = journal;
        this.crashesBeforeParking = crashesBeforeParking;
    }

    /**
     * The server's guard over its journal, as opened at the start of this run: each consumer counts the
     * deliveries the journal shows interrupted at its first delivery.
     *
     * @param crashesBeforeParking crashes after which a message is parked; at least 1
     */
    public static CrashGuard on(CrashJournal journal, int crashesBeforeParking) {
        CrashGuard guard = new CrashGuard(journal, crashesBeforeParking);
        guard.uncounted.putAll(journal.interrupted());
        return guard;
    }

    public boolean isOn() {
        return journal != null;
    }

    public int crashesBeforeParking() {
        return crashesBeforeParking;
    }

    /** Journals a delivery while it runs; closed when it ends. */
    CrashJournal.Entry journal(String consumer, String messageId) {
        return journal == null ? CrashJournal.Entry.NONE : journal.begin(consumer, messageId);
    }

    /**
     * Counts, once per run and before any of its deliveries goes on, the crash that interrupted the
     * consumer's deliveries in the last run.
     *
     * @param count writes the count in a transaction of its own
     */
    void countInterrupted(String consumer, Counting count) throws Exception {
        Set<String> interrupted = uncounted.get(consumer);
        if (interrupted == null) {
            return;
        }
        synchronized (interrupted) { // the consumer's other deliveries wait: none may miss its count
            if (uncounted.get(consumer) == interrupted) {
                count.count(interrupted);
                uncounted.remove(consumer);
            }
        }
    }

    /**
     * Whether the message's crashes are to be read before it is processed: the last crash of this
     * server interrupted it, or its broker redelivers it (a crash of another server sharing the queue
     * returns it so).
     */
    boolean suspect(String consumer, IdRow row) {
        return journal != null
                && (journal.interruptedDeliveries(consumer).contains(row.messageId()) || redelivered(row.message()));
    }

    /** Waits until no other interrupted message is being processed; {@link #release} must follow. */
    void acquireAlone() throws InterruptedException {
        alone.acquire();
    }

    void release() {
        alone.release();
    }

    private static boolean redelivered(Message message) {
        try {
            return message.getJMSRedelivered() || ParkingRule.deliveryCount(message) > 1;
        } catch (JMSException e) {
            return true; // unknown: read its crashes
        }
    }

    /** Writes one crash more for each of a consumer's interrupted messages. */
    @FunctionalInterface
    interface Counting {
        void count(Set<String> messageIds) throws Exception;
    }
}
