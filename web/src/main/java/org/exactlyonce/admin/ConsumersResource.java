package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.exactlyonce.metrics.ConsumerMetrics;
import org.exactlyonce.metrics.Outcome;

/** Every consumer's deliveries by outcome since the server started. */
@Path("/consumers")
@Produces(MediaType.APPLICATION_JSON)
public class ConsumersResource {

    @Inject
    ConsumerMetrics metrics;

    @GET
    public List<ConsumerStatus> list() {
        return metrics.snapshot().entrySet().stream()
                .map(consumer -> new ConsumerStatus(consumer.getKey(), labelled(consumer.getValue())))
                .toList();
    }

    private static Map<String, Long> labelled(Map<Outcome, Long> counts) {
        Map<String, Long> labelled = new LinkedHashMap<>();
        counts.forEach((outcome, count) -> labelled.put(outcome.label(), count));
        return labelled;
    }

    /** One consumer's counts, keyed by outcome ({@code processed}, {@code duplicate_already_committed}, …). */
    public record ConsumerStatus(String consumer, Map<String, Long> deliveries) {}
}
