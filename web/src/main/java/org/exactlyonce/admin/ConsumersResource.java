package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.processed.IdTableCounts;
import org.exactlyonce.internal.purge.PurgeReport;
import org.exactlyonce.internal.telemetry.Outcome;

/**
 * Every consumer's figures: deliveries by outcome since the server started, throughput, parked
 * messages, and its processed-ID table as the last purge counted it.
 */
@Path("/consumers")
@Produces(MediaType.APPLICATION_JSON)
public class ConsumersResource {

    @Inject
    ConsoleFacade engine;

    @GET
    @Operation(summary = "Every consumer's figures")
    public List<ConsumerStatus> list() {
        Map<String, Map<Outcome, Long>> deliveries = engine.deliveries();
        TreeSet<String> names = new TreeSet<>(deliveries.keySet());
        names.addAll(engine.localConsumers());
        PurgeReport lastPurge = engine.lastPurge().orElse(null);
        Map<String, Long> parked = engine.parkedByConsumer();
        names.addAll(parked.keySet());
        return names.stream()
                .map(consumer -> status(
                        consumer,
                        deliveries.getOrDefault(consumer, Map.of()),
                        parked.getOrDefault(consumer, 0L),
                        lastPurge))
                .toList();
    }

    private ConsumerStatus status(String consumer, Map<Outcome, Long> counts, long parked, PurgeReport lastPurge) {
        Map<String, Long> labelled = new LinkedHashMap<>();
        for (Outcome outcome : Outcome.values()) {
            labelled.put(outcome.label(), counts.getOrDefault(outcome, 0L));
        }
        IdTableCounts idTable = lastPurge == null ? null : lastPurge.idTables().get(consumer);
        Optional<ConsumerDestination> destination = engine.destinationOf(consumer);
        return new ConsumerStatus(
                consumer,
                destination.map(ConsumerDestination::toString).orElse(null),
                destination.flatMap(engine::subscriptionOf).orElse(null),
                labelled,
                engine.processedLastMinute(consumer),
                parked,
                idTable,
                idTable == null
                        ? null
                        : idTable.oldestUnconfirmedAge(Instant.now())
                                .map(Duration::toSeconds)
                                .orElse(null),
                lastPurge == null ? List.of() : lastPurge.unconfirmableOf(consumer),
                lastPurge);
    }

    /**
     * One consumer's figures.
     *
     * @param destination what it reads, as the database records it: {@code queue LedgerCredits}; {@code
     *     null} before its first delivery
     * @param subscription for a topic consumer deployed on this server, how its bean subscribes: {@code
     *     durable subscription credit-events, client ID ledger-first}, {@code non-durable subscription};
     *     {@code null} otherwise
     * @param deliveries counts since the server started, keyed by outcome ({@code processed}, {@code
     *     duplicate_already_committed}, {@code duplicate_lost_race}, {@code duplicate_conflict}, {@code
     *     failed}, {@code parked})
     * @param processedLastMinute messages processed in the last 60 seconds
     * @param parkedNow messages parked and neither replayed nor discarded yet
     * @param idTable the consumer's rows in the processed-ID table as the last purge counted them;
     *     {@code null} before the server's first purge run
     * @param oldestUnconfirmedAgeSeconds age of the oldest unconfirmed ID, as the last purge found it
     * @param unconfirmable why the last purge could not confirm some of its IDs (which it keeps); empty
     *     when it could confirm them all
     * @param lastPurge the server's last purge run, if any
     */
    public record ConsumerStatus(
            String consumer,
            String destination,
            String subscription,
            Map<String, Long> deliveries,
            long processedLastMinute,
            long parkedNow,
            IdTableCounts idTable,
            Long oldestUnconfirmedAgeSeconds,
            List<String> unconfirmable,
            PurgeReport lastPurge) {}
}
