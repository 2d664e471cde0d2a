package org.exactlyonce.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Counts deliveries per consumer and outcome since the server started, as the MicroProfile Metrics
 * counter {@code exactlyonce.deliveries} tagged with {@code consumer} and {@code outcome}.
 */
@ApplicationScoped
public class ConsumerMetrics {

    static final String DELIVERIES = "exactlyonce.deliveries";

    @Inject
    MetricRegistry registry;

    private final ConcurrentMap<String, Map<Outcome, Counter>> consumers = new ConcurrentHashMap<>();

    public void count(String consumer, Outcome outcome) {
        countersOf(consumer).get(outcome).inc();
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
        Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            counters.put(
                    outcome,
                    registry.counter(DELIVERIES, new Tag("consumer", consumer), new Tag("outcome", outcome.label())));
        }
        return counters;
    }
}
