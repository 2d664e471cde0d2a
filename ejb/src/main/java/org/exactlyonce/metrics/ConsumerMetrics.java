package org.exactlyonce.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.exactlyonce.processed.IdTableCounts;

/**
 * The consumers' figures as MicroProfile Metrics (Prometheus format at {@code /metrics}): the counter
 * {@code exactlyonce.deliveries} tagged with {@code consumer} and {@code outcome} since the server
 * started; the gauge {@code exactlyonce.processed.last.minute} per consumer; and, as the last purge
 * counted them, the gauges {@code exactlyonce.ids} (tagged {@code state}) and {@code
 * exactlyonce.oldest.unconfirmed.seconds}.
 */
@ApplicationScoped
public class ConsumerMetrics {

    static final String DELIVERIES = "exactlyonce.deliveries";
    static final String PROCESSED_LAST_MINUTE = "exactlyonce.processed.last.minute";
    static final String IDS = "exactlyonce.ids";
    static final String OLDEST_UNCONFIRMED = "exactlyonce.oldest.unconfirmed.seconds";

    private final Clock clock = Clock.systemUTC();
    private final ConcurrentMap<String, LastMinute> processedLastMinute = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, IdTableCounts> idTables = new ConcurrentHashMap<>();

    @Inject
    MetricRegistry registry;

    private final ConcurrentMap<String, Map<Outcome, Counter>> consumers = new ConcurrentHashMap<>();

    public void count(String consumer, Outcome outcome) {
        countersOf(consumer).get(outcome).inc();
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
        if (idTables.put(consumer, counts) == null) {
            Tag tag = new Tag("consumer", consumer);
            registry.gauge(IDS, () -> idTables.get(consumer).unconfirmed(), tag, new Tag("state", "unconfirmed"));
            registry.gauge(IDS, () -> idTables.get(consumer).acknowledged(), tag, new Tag("state", "acknowledged"));
            registry.gauge(OLDEST_UNCONFIRMED, () -> oldestUnconfirmedSeconds(consumer), tag);
        }
    }

    private long oldestUnconfirmedSeconds(String consumer) {
        return idTables.get(consumer)
                .oldestUnconfirmedAge(clock.instant())
                .map(Duration::toSeconds)
                .orElse(0L);
    }

    /** Every consumer that has seen a delivery, with its counts by outcome. */
    public SortedMap<String, Map<Outcome, Long>> snapshot() {
        SortedMap<String, Map<Outcome, Long>> snapshot = new TreeMap<>();
        consumers.forEach((consumer, counters) -> {
            Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
            counters.forEach((outcome, counter) -> counts.put(outcome, counter.getCount()));
            snapshot.put(consumer, counts);
        });
        return snapshot;
    }

    private Map<Outcome, Counter> countersOf(String consumer) {
        return consumers.computeIfAbsent(consumer, this::register);
    }

    private Map<Outcome, Counter> register(String consumer) {
        processedLastMinute.put(consumer, new LastMinute());
        registry.gauge(PROCESSED_LAST_MINUTE, () -> processedLastMinute(consumer), new Tag("consumer", consumer));
        Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            counters.put(
                    outcome,
                    registry.counter(DELIVERIES, new Tag("consumer", consumer), new Tag("outcome", outcome.label())));
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
