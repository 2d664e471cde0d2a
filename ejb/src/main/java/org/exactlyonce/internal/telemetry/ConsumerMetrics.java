package org.exactlyonce.internal.telemetry;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import org.exactlyonce.internal.processed.IdTableCounts;

/**
 * The consumers' figures since the server started, for the console and for a metrics scraper: deliveries
 * per consumer and outcome, messages processed in the last minute, and the processed-ID table as the last
 * purge counted it.
 */
@ApplicationScoped
public class ConsumerMetrics {

    private final Clock clock = Clock.systemUTC();
    private final ConcurrentMap<String, Map<Outcome, LongAdder>> deliveries = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LastMinute> processedLastMinute = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, IdTableCounts> idTables = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Boolean> unconfirmable = new ConcurrentHashMap<>();

    public void count(String consumer, Outcome outcome) {
        countersOf(consumer).get(outcome).increment();
        if (outcome == Outcome.PROCESSED) {
            processedLastMinute.get(consumer).add(clock.millis());
        }
    }

    /** Messages the consumer processed in the last 60 seconds. */
    public long processedLastMinute(String consumer) {
        LastMinute window = processedLastMinute.get(consumer);
        return window == null ? 0 : window.total(clock.millis());
    }

    /** Publishes what the purge counted of a consumer's processed-ID table. */
    public void idTableCounted(String consumer, IdTableCounts counts) {
        idTables.put(consumer, counts);
    }

    /** Publishes whether the last purge could not confirm some of a consumer's IDs (the report says why). */
    public void purgeCouldNotConfirm(String consumer, boolean couldNot) {
        unconfirmable.put(consumer, couldNot);
    }

    /** Whether the last purge could not confirm some of the consumer's IDs; empty before its first run. */
    public Optional<Boolean> lastPurgeCouldNotConfirm(String consumer) {
        return Optional.ofNullable(unconfirmable.get(consumer));
    }

    /** The consumers whose processed-ID tables a purge has counted, in order. */
    public SortedSet<String> countedIdTables() {
        return new TreeSet<>(idTables.keySet());
    }

    /** The consumer's processed-ID table as the last purge counted it; empty before the first count. */
    public Optional<IdTableCounts> idTable(String consumer) {
        return Optional.ofNullable(idTables.get(consumer));
    }

    /** Age of the consumer's oldest unconfirmed ID as the last purge counted it; zero when it had none. */
    public long oldestUnconfirmedSeconds(String consumer) {
        return idTable(consumer)
                .flatMap(counts -> counts.oldestUnconfirmedAge(clock.instant()))
                .map(Duration::toSeconds)
                .orElse(0L);
    }

    /** Every consumer that has seen a delivery, with its counts by outcome. */
    public SortedMap<String, Map<Outcome, Long>> snapshot() {
        SortedMap<String, Map<Outcome, Long>> snapshot = new TreeMap<>();
        deliveries.forEach((consumer, counters) -> {
            Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
            counters.forEach((outcome, counter) -> counts.put(outcome, counter.sum()));
            snapshot.put(consumer, counts);
        });
        return snapshot;
    }

    private Map<Outcome, LongAdder> countersOf(String consumer) {
        return deliveries.computeIfAbsent(consumer, this::firstSeen);
    }

    private Map<Outcome, LongAdder> firstSeen(String consumer) {
        processedLastMinute.put(consumer, new LastMinute());
        Map<Outcome, LongAdder> counters = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            counters.put(outcome, new LongAdder());
        }
        return counters;
    }

    /** Counts per second over the last 60 seconds, in a ring of one slot per second. */
    static final class LastMinute {
        private static final int SECONDS = 60;
        private final long[] second = new long[SECONDS];
        private final long[] count = new long[SECONDS];

        synchronized void add(long nowMillis) {
            long now = nowMillis / 1000;
            int slot = (int) (now % SECONDS);
            if (second[slot] != now) {
                second[slot] = now;
                count[slot] = 0;
            }
            count[slot]++;
        }

        synchronized long total(long nowMillis) {
            long now = nowMillis / 1000;
            long total = 0;
            for (int slot = 0; slot < SECONDS; slot++) {
                if (now - second[slot] < SECONDS) {
                    total += count[slot];
                }
            }
            return total;
        }
    }
}
