package org.exactlyonce.internal.purge;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.exactlyonce.internal.processed.IdTableCounts;

/**
 * What one purge run did.
 *
 * @param startedAt when the run started
 * @param took how long it ran
 * @param longestLockHold the longest time one batch of deletes held this server's deliveries from
 *     beginning (see {@link org.exactlyonce.internal.delivery.DeliveriesInFlight}), the time that adds to a delivery's latency at worst
 * @param confirmed IDs newly confirmed acknowledged: their messages are gone from the broker
 * @param confirmedByAge IDs no broker view could be asked about, taken as acknowledged because they
 *     are older than {@code exactlyonce.purge.confirm-by-age}; zero unless that is configured
 * @param keptPending IDs kept unconfirmed because their messages are still on the broker
 * @param keptResent acknowledged IDs past the dedup window kept because a message carrying the same ID
 *     (a producer's re-send) still waits on the broker
 * @param deleted acknowledged IDs deleted after the dedup window
 * @param failedBatches batches rolled back (a lock conflict with another server's purge, an outage), retried next run
 * @param unconfirmable consumers some of whose IDs this server could not confirm this run, with the reasons
 *     (the IDs are kept, and retried next run)
 * @param idTables each consumer's rows in the processed-ID table at the end of the run
 */
public record PurgeReport(
        Instant startedAt,
        Duration took,
        Duration longestLockHold,
        int confirmed,
        int confirmedByAge,
        int keptPending,
        int keptResent,
        int deleted,
        int failedBatches,
        Map<String, List<String>> unconfirmable,
        Map<String, IdTableCounts> idTables) {

    /** Why this run could not confirm some of the consumer's IDs; empty when it could confirm them all. */
    public List<String> unconfirmableOf(String consumer) {
        return unconfirmable.getOrDefault(consumer, List.of());
    }

    /** The run's one log line. */
    public String summary() {
        return "purge: confirmed=" + confirmed + (confirmedByAge == 0 ? "" : " confirmed-by-age=" + confirmedByAge)
                + " kept-pending=" + keptPending + (keptResent == 0 ? "" : " kept-resent=" + keptResent)
                + " deleted=" + deleted + " took="
                + took.toMillis() + "ms longest-lock-hold=" + longestLockHold.toMillis() + "ms"
                + (unconfirmable.isEmpty() ? "" : " unconfirmable=" + unconfirmable);
    }
}
