package org.exactlyonce.admin;

import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.exactlyonce.metrics.ConsumerMetrics;
import org.exactlyonce.metrics.Outcome;
import org.exactlyonce.processed.IdTableCounts;
import org.exactlyonce.purge.ConsumerQueues;
import org.exactlyonce.purge.Purge;
import org.exactlyonce.purge.PurgeReport;

/** Every consumer's deliveries by outcome since the server started, and its processed-ID table. */
@Path("/consumers")
@Produces(MediaType.APPLICATION_JSON)
public class ConsumersResource {

    @Inject
    ConsumerMetrics metrics;

    @Inject
    ConsumerQueues queues;

    @EJB
    Purge purge;

    @GET
    public List<ConsumerStatus> list() {
        Map<String, Map<Outcome, Long>> deliveries = metrics.snapshot();
        TreeSet<String> consumers = new TreeSet<>(deliveries.keySet());
        consumers.addAll(queues.consumers());
        PurgeReport lastPurge = purge.lastRun().orElse(null);
        return consumers.stream()
                .map(consumer -> status(consumer, deliveries.getOrDefault(consumer, Map.of()), lastPurge))
                .toList();
    }

    private ConsumerStatus status(String consumer, Map<Outcome, Long> counts, PurgeReport lastPurge) {
        Map<String, Long> labelled = new LinkedHashMap<>();
        for (Outcome outcome : Outcome.values()) {
            labelled.put(outcome.label(), counts.getOrDefault(outcome, 0L));
        }
        return new ConsumerStatus(
                consumer,
                queues.queueOf(consumer).orElse(null),
                labelled,
                lastPurge == null ? null : lastPurge.idTables().get(consumer),
                lastPurge);
    }

    /**
     * One consumer's figures.
     *
     * @param deliveries counts since the server started, keyed by outcome ({@code processed}, …)
     * @param idTable the consumer's rows in the processed-ID table as the last purge counted them;
     *     {@code null} before the server's first purge run
     * @param lastPurge the server's last purge run, if any
     */
    public record ConsumerStatus(
            String consumer,
            String queue,
            Map<String, Long> deliveries,
            IdTableCounts idTable,
            PurgeReport lastPurge) {}
}
