package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The purge of processed IDs, on a test server that purges every 2 s with a dedup window of zero and no
 * grace period: only the broker's word keeps an ID whose message can still be redelivered.
 */
class PurgeIT {

    private static final Duration PURGE_INTERVAL = Duration.ofSeconds(2);

    /** The longest dedup window of the phases ({@code -Dexactlyonce.purge.dedup-window}): zero or five seconds. */
    private static final Duration DEDUP_WINDOW = Duration.ofSeconds(5);

    private static final int BATCH_SIZE = 100;

    private final LedgerClient ledger = new LedgerClient();
    private final TestServer server = TestServer.of(ledger);
    private final String account = "acct-" + UUID.randomUUID();

    @Test
    void idOfAMessageStillInFlightIsNeverPurged() throws Exception {
        String id = newId();
        server.forgetEarlierHalts();
        ledger.sendCredit(LedgerClient.creditThatCrashesAfterCommit(id, account, 30, Duration.ofSeconds(10)));

        Await.until(
                "the credit is committed",
                Duration.ofSeconds(30),
                () -> ledger.processed(id).isPresent());
        JsonObject purge = ledger.purgeNow();
        Await.pause(PURGE_INTERVAL.multipliedBy(2)); // and the timer's runs

        assertEquals("UNCONFIRMED", ledger.processed(id).orElseThrow().getString("state"), "after " + purge);
        assertTrue(purge.getInt("keptPending") >= 1, "the purge saw the message in flight: " + purge);
        server.awaitHaltAt("AFTER_COMMIT");
        server.restart();
        Await.until("the redelivery is dropped", Duration.ofMinutes(2), () -> ledger.duplicates() >= 1);
        assertEquals(30, ledger.balance(account));
        assertEquals(1, ledger.account(account).getJsonNumber("credits").longValue());
        Await.until(
                "the acknowledged ID is purged",
                Duration.ofSeconds(30),
                () -> ledger.processed(id).isEmpty());
    }

    /**
     * A message the broker gave up on waits on the exception destination, from where an operator can
     * move it back to its queue: its ID stays until the message is gone from there too.
     */
    @Test
    void idOfAMessageOnTheExceptionDestinationIsKeptUntilTheMessageIsTakenOff() {
        String id = newId();
        ledger.putDeadLetter(id); // first: the purge deletes an ID as soon as its credit is acknowledged
        ledger.sendCredit(id, account, 6);
        Await.untilEquals("the credit is booked", 6L, Duration.ofSeconds(30), () -> ledger.balance(account));
        JsonObject purge = ledger.purgeNow();
        Await.pause(PURGE_INTERVAL.multipliedBy(2)); // and the timer's runs

        assertTrue(ledger.processed(id).isPresent(), "kept while its message waits there: " + purge);
        ledger.takeDeadLetter(id);
        Await.until(
                "the ID is purged once the message is taken off",
                Duration.ofSeconds(30),
                () -> ledger.processed(id).isEmpty());
    }

    /**
     * The purge keeps the processed ID of a message that is also parked, however old it is, so that a
     * late replay of the parked copy is still recognised and refused instead of booked a second time.
     */
    @Test
    void idOfAParkedMessageOutlivesTheDedupWindowAndItsReplayIsRefused() {
        String parkedId = newId();
        String otherId = newId();
        ledger.sendCredit(LedgerClient.creditThatFailsEveryDelivery(parkedId, account, 4));
        Await.until(
                "the failing credit is parked",
                Duration.ofSeconds(60),
                () -> ledger.parked().stream().anyMatch(each -> parkedId.equals(each.getString("messageId", null))));
        long parked = ledger.parked().stream()
                .filter(each -> parkedId.equals(each.getString("messageId", null)))
                .findFirst()
                .orElseThrow()
                .getInt("id");

        ledger.sendCredit(parkedId, account, 4); // the producer sends it again once the cause is gone
        ledger.sendCredit(otherId, account, 1);
        Await.untilEquals("both are booked", 5L, Duration.ofSeconds(60), () -> ledger.balance(account));
        Await.until( // the dedup window is zero here: an ID goes as soon as it is confirmed
                "the purge deletes the ID of the message that is not parked",
                Duration.ofSeconds(30),
                () -> ledger.processed(otherId).isEmpty());
        Await.pause(PURGE_INTERVAL.multipliedBy(2));

        assertEquals("ACKNOWLEDGED", ledger.processed(parkedId).orElseThrow().getString("state"));
        assertEquals(409, ledger.changeParked("POST", parked + "/replay", "admin"));
        Await.settle();
        assertEquals(5, ledger.balance(account));
    }

    /**
     * A producer's re-send that waits on a paused queue past the dedup window, sent after the purge
     * confirmed the ID of the message it repeats (before that, the look finds the re-send and keeps the
     * ID unconfirmed): the ID expires meanwhile, but the purge finds the re-send on the queue and keeps
     * it, so that the re-send is dropped once the consumer resumes. The purge's deletions are held until
     * the re-send is on the queue: with a window of zero the ID would otherwise go first, which is the
     * window's meaning.
     */
    @Test
    void aResendWaitingPastTheDedupWindowKeepsItsIdAndIsDropped() {
        String id = newId();
        ledger.holdPurgeDeletions(true);
        try {
            ledger.sendCredit(id, account, 7);
            Await.untilEquals("the credit is booked", 7L, Duration.ofSeconds(30), () -> ledger.balance(account));
            Await.until(
                    "the purge confirms its ID",
                    Duration.ofSeconds(30),
                    () -> ledger.processed(id).orElseThrow().getString("state").equals("ACKNOWLEDGED"));
            ledger.pauseConsumer("LedgerConsumer", true);
            ledger.sendCredit(id, account, 7); // the producer's re-send, held on the queue
        } finally {
            ledger.holdPurgeDeletions(false);
        }
        long duplicatesBefore = ledger.duplicates();
        try {
            Await.pause(DEDUP_WINDOW.plus(PURGE_INTERVAL.multipliedBy(3))); // past the window, and runs after it

            assertTrue(ledger.processed(id).isPresent(), "kept while a message carrying it waits");
        } finally {
            ledger.pauseConsumer("LedgerConsumer", false);
        }
        Await.until("the re-send is dropped", Duration.ofSeconds(60), () -> ledger.duplicates() > duplicatesBefore);
        assertEquals(7, ledger.balance(account));
        Await.until(
                "the ID goes once the re-send is gone",
                Duration.ofSeconds(30),
                () -> ledger.processed(id).isEmpty());
    }

    @Test
    @Tag("needs-no-dedup-window")
    void tableShrinksToOneBatchWithinTwoPeriodsAfterTheQueueDrains() throws Exception {
        int messages = 10_000;
        long failedBefore = ledger.deliveries("failed");
        TableSizes sizes = new TableSizes(ledger);
        Await.until( // what earlier tests left is purged first
                "the table starts at most one batch",
                Duration.ofMinutes(2),
                () -> isAtMostOneBatch(ledger.tableSize()));

        sizes.start();
        ledger.sendBulk(Json.createObjectBuilder()
                .add("account", account)
                .add("count", messages)
                .add("amount", 1)
                .build());
        Await.until("the queue drains", Duration.ofMinutes(10), () -> ledger.balance(account) == messages);
        sizes.mark("drained");
        Await.until(
                "the table is down to one batch",
                PURGE_INTERVAL.multipliedBy(2).plusSeconds(1),
                () -> isAtMostOneBatch(ledger.tableSize()));
        sizes.stop();
        System.out.println("purge-load: messages=" + messages + " table-size-over-time=" + sizes);

        Await.settle();
        assertEquals(messages, ledger.balance(account));
        assertEquals(messages, ledger.account(account).getJsonNumber("credits").longValue());
        assertEquals(failedBefore, ledger.deliveries("failed"), "no delivery failed while purges ran");
    }

    private static boolean isAtMostOneBatch(long tableSize) {
        return tableSize >= 0 && tableSize <= BATCH_SIZE;
    }

    /** The processed-ID table's size, sampled every second in the background, for the record. */
    private static final class TableSizes {
        private final LedgerClient ledger;
        private final List<String> samples = Collections.synchronizedList(new ArrayList<>());
        private final long started = System.nanoTime();
        private Thread sampler;

        TableSizes(LedgerClient ledger) {
            this.ledger = ledger;
        }

        void start() {
            sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    mark("");
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.start();
        }

        void mark(String event) {
            samples.add(Duration.ofNanos(System.nanoTime() - started).toSeconds() + "s:" + ledger.tableSize()
                    + (event.isEmpty() ? "" : "(" + event + ")"));
        }

        void stop() throws InterruptedException {
            sampler.interrupt();
            sampler.join();
            mark("");
        }

        @Override
        public String toString() {
            return samples.toString();
        }
    }
}
