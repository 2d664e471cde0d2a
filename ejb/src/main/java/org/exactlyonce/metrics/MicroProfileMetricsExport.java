package org.exactlyonce.metrics;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The figures as MicroProfile Metrics (Prometheus format at {@code /metrics} on Open Liberty): the
 * counter {@code exactlyonce.deliveries} tagged with {@code consumer} and {@code outcome}; the gauge
 * {@code exactlyonce.processed.last.minute} per consumer; and, as the last purge counted them, the gauges
 * {@code exactlyonce.ids} (tagged {@code state}) and {@code exactlyonce.oldest.unconfirmed.seconds}.
 *
 * <p>On a server without the MicroProfile Metrics API the container cannot load this class and skips
 * it (Weld logs WELD-000119 at INFO); {@link ConsumerMetrics} then exports nothing.
 */
@ApplicationScoped
class MicroProfileMetricsExport implements MetricsExport {

    static final String DELIVERIES = "exactlyonce.deliveries";
    static final String PROCESSED_LAST_MINUTE = "exactlyonce.processed.last.minute";
    static final String IDS = "exactlyonce.ids";
    static final String OLDEST_UNCONFIRMED = "exactlyonce.oldest.unconfirmed.seconds";
    static final String UNCONFIRMABLE = "exactlyonce.purge.unconfirmable";

    @Inject
    MetricRegistry registry;

    private final ConcurrentMap<String, Map<Outcome, Counter>> counters = new ConcurrentHashMap<>();

    @Override
    public void consumerSeen(String consumer, ConsumerMetrics figures) {
        Tag tag = new Tag("consumer", consumer);
        registry.gauge(PROCESSED_LAST_MINUTE, () -> figures.processedLastMinute(consumer), tag);
        Map<Outcome, Counter> byOutcome = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            byOutcome.put(outcome, registry.counter(DELIVERIES, tag, new Tag("outcome", outcome.label())));
        }
        counters.put(consumer, byOutcome);
    }

    @Override
    public void counted(String consumer, Outcome outcome) {
        counters.get(consumer).get(outcome).inc();
    }

    @Override
    public void idTableSeen(String consumer, ConsumerMetrics figures) {
        Tag tag = new Tag("consumer", consumer);
        registry.gauge(IDS, () -> figures.idTable(consumer).unconfirmed(), tag, new Tag("state", "unconfirmed"));
        registry.gauge(IDS, () -> figures.idTable(consumer).acknowledged(), tag, new Tag("state", "acknowledged"));
        registry.gauge(OLDEST_UNCONFIRMED, () -> figures.oldestUnconfirmedSeconds(consumer), tag);
        registry.gauge(UNCONFIRMABLE, () -> figures.unconfirmable(consumer), tag);
    }
}
