package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SortedSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.outbox.OutboxFigures;
import org.exactlyonce.internal.processed.IdTableCounts;
import org.exactlyonce.internal.telemetry.Outcome;

/**
 * The consumers' figures for a Prometheus scrape, the same on every server: the engine renders them
 * itself because the servers share no metrics API (WildFly has no MicroProfile Metrics). Names and
 * labels: {@code exactlyonce_deliveries_total{consumer,outcome}}, {@code
 * exactlyonce_processed_last_minute{consumer}}, and as the last purge counted them {@code
 * exactlyonce_ids{consumer,state}}, {@code exactlyonce_oldest_unconfirmed_seconds{consumer}}, {@code
 * exactlyonce_purge_unconfirmable{consumer}}; and the outbox's {@code exactlyonce_outbox_backlog}, {@code
 * exactlyonce_outbox_oldest_seconds}, {@code exactlyonce_outbox_failing}, {@code
 * exactlyonce_outbox_sent_total} and {@code exactlyonce_outbox_send_failures_total}.
 */
@Path("/metrics")
public class MetricsResource {

    @Inject
    ConsoleFacade engine;

    @GET
    @Produces(PrometheusText.CONTENT_TYPE)
    @Operation(summary = "The consumers' figures in Prometheus' text format")
    public String scrape() throws SQLException {
        Map<String, Map<Outcome, Long>> deliveries = engine.deliveries();
        PrometheusText text = new PrometheusText();
        text.metric("exactlyonce_deliveries_total", "counter", "Deliveries since the server started, by outcome.");
        deliveries.forEach((consumer, counts) -> counts.forEach((outcome, count) ->
                text.sample("exactlyonce_deliveries_total", count, "consumer", consumer, "outcome", outcome.label())));
        text.metric("exactlyonce_processed_last_minute", "gauge", "Messages processed in the last 60 seconds.");
        deliveries
                .keySet()
                .forEach(consumer -> text.sample(
                        "exactlyonce_processed_last_minute",
                        engine.processedLastMinute(consumer),
                        "consumer",
                        consumer));
        idTables(text);
        outbox(text, engine.outbox());
        return text.toString();
    }

    private static void outbox(PrometheusText text, OutboxFigures figures) {
        text.metric("exactlyonce_outbox_backlog", "gauge", "Outgoing messages committed and not sent yet.");
        text.sample("exactlyonce_outbox_backlog", figures.backlog());
        text.metric("exactlyonce_outbox_oldest_seconds", "gauge", "Age of the oldest of them; 0 when none waits.");
        text.sample(
                "exactlyonce_outbox_oldest_seconds",
                figures.oldestAge(Instant.now()).map(Duration::toSeconds).orElse(0L));
        text.metric("exactlyonce_outbox_failing", "gauge", "Outgoing messages whose last send failed (kept).");
        text.sample("exactlyonce_outbox_failing", figures.failing());
        text.metric("exactlyonce_outbox_sent_total", "counter", "Outgoing messages this server sent since it started.");
        text.sample("exactlyonce_outbox_sent_total", figures.sent());
        text.metric("exactlyonce_outbox_send_failures_total", "counter", "Sends that failed since the server started.");
        text.sample("exactlyonce_outbox_send_failures_total", figures.sendFailures());
    }

    /** The figures of the last purge's count, for the consumers it counted. */
    private void idTables(PrometheusText text) {
        SortedSet<String> counted = engine.countedIdTables();
        text.metric("exactlyonce_ids", "gauge", "Processed IDs in the table, by state, as the last purge counted.");
        for (String consumer : counted) {
            IdTableCounts counts = engine.idTable(consumer).orElseThrow();
            text.sample("exactlyonce_ids", counts.unconfirmed(), "consumer", consumer, "state", "unconfirmed");
            text.sample("exactlyonce_ids", counts.acknowledged(), "consumer", consumer, "state", "acknowledged");
        }
        text.metric(
                "exactlyonce_oldest_unconfirmed_seconds",
                "gauge",
                "Age of the oldest unconfirmed ID, at the last purge.");
        counted.forEach(consumer -> text.sample(
                "exactlyonce_oldest_unconfirmed_seconds",
                engine.oldestUnconfirmedSeconds(consumer),
                "consumer",
                consumer));
        text.metric(
                "exactlyonce_purge_unconfirmable",
                "gauge",
                "1 when the last purge could not confirm some of the consumer's IDs (it keeps them).");
        counted.forEach(consumer -> text.sample(
                "exactlyonce_purge_unconfirmable",
                engine.lastPurgeCouldNotConfirm(consumer).orElse(false) ? 1 : 0,
                "consumer",
                consumer));
    }
}
