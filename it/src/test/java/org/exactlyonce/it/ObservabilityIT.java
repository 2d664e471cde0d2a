package org.exactlyonce.it;

import static org.exactlyonce.it.ExactlyOnceIT.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The engine's health checks and metrics as the console's API serves them, the same on every server
 * (WildFly lists no health check of a module inside an EAR and has no MicroProfile Metrics); its spans
 * and figures through MicroProfile Telemetry, which the test servers export to their logs
 * ({@code otel.traces.exporter=logging}, {@code otel.metrics.exporter=logging}).
 */
class ObservabilityIT {

    private static final String API = "/exactly-once/api";

    private final LedgerClient ledger = new LedgerClient();
    private final ServerLog log = new ServerLog();
    private final String account = "observed-" + UUID.randomUUID();

    @Test
    void healthReportsTheDatabaseTheMessagingEngineAndThePurge() {
        HttpResponse<String> readiness = ledger.call("GET", API + "/health/ready", "viewer", false);
        HttpResponse<String> liveness = ledger.call("GET", API + "/health/live", "viewer", false);
        JsonObject ready = LedgerClient.json(readiness).asJsonObject();
        JsonObject live = LedgerClient.json(liveness).asJsonObject();

        assertEquals(200, readiness.statusCode(), readiness.body());
        assertEquals("UP", ready.getString("status"), ready.toString());
        for (String check : List.of(
                "exactly-once-processed-ids",
                "exactly-once-database",
                "exactly-once-durability",
                "exactly-once-messaging")) {
            assertTrue(ready.toString().contains("\"" + check + "\""), check + " in " + ready);
        }
        assertEquals(200, liveness.statusCode(), liveness.body());
        assertTrue(live.toString().contains("\"exactly-once-purge\""), live.toString());
    }

    @Test
    void healthAndMetricsNeedAViewer() {
        for (String path : List.of("/health", "/health/ready", "/health/live", "/metrics")) {
            assertEquals(401, ledger.call("GET", API + path, null, false).statusCode(), path);
        }
    }

    @Test
    void theFiguresAreMetricsInPrometheusFormat() {
        ledger.sendCredit(newId(), account, 1);
        Await.untilEquals("the credit is booked", 1L, Duration.ofSeconds(30), () -> ledger.balance(account));
        ledger.call("POST", API + "/purge", "admin", true);

        HttpResponse<String> scrape = ledger.call("GET", API + "/metrics", "viewer", false);

        assertEquals(200, scrape.statusCode(), scrape.body());
        String contentType = scrape.headers().firstValue("Content-Type").orElse("");
        assertTrue(contentType.startsWith("text/plain") && contentType.contains("version=0.0.4"), contentType);
        String metrics = scrape.body();
        for (List<String> metric : List.of(
                List.of("exactlyonce_deliveries_total{", "outcome=\"processed\""),
                List.of("exactlyonce_processed_last_minute{"),
                List.of("exactlyonce_ids{", "state=\"unconfirmed\""),
                List.of("exactlyonce_oldest_unconfirmed_seconds{"),
                List.of("exactlyonce_purge_unconfirmable{"))) {
            assertTrue(
                    metrics.lines()
                            .filter(line -> line.startsWith(metric.get(0)))
                            .filter(line -> line.contains("consumer=\"" + LedgerClient.CONSUMER + "\""))
                            .anyMatch(line -> metric.stream().allMatch(line::contains)),
                    metric + " in " + metrics);
        }
        assertTrue(metrics.contains("# TYPE exactlyonce_deliveries_total counter"), metrics);
    }

    @Test
    void theOutboxsFiguresAreMetricsToo() {
        long sentBefore = sample("exactlyonce_outbox_sent_total");
        ledger.sendCreditWithReceipt(Json.createObjectBuilder()
                .add("messageId", newId())
                .add("account", account)
                .add("amount", 1)
                .build());
        Await.untilEquals(
                "the receipt is booked", 1L, Duration.ofSeconds(30), () -> ledger.balance("receipts-" + account));

        assertTrue(sample("exactlyonce_outbox_sent_total") > sentBefore, "a receipt went out");
        // the relay forgets a message right after its send: then nothing waits, and nothing failed
        Await.untilEquals(
                "the outbox is empty", 0L, Duration.ofSeconds(30), () -> sample("exactlyonce_outbox_backlog"));
        assertEquals(0, sample("exactlyonce_outbox_oldest_seconds"));
        assertEquals(0, sample("exactlyonce_outbox_failing"));
    }

    /** A metric without labels, from a scrape; fails when the scrape lacks it. */
    private long sample(String name) {
        String metrics = ledger.call("GET", API + "/metrics", "viewer", false).body();
        return metrics.lines()
                .filter(line -> line.startsWith(name + " "))
                .mapToLong(line -> Long.parseLong(line.substring(name.length() + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " in " + metrics));
    }

    @Test
    void eachDeliveryIsASpanThatCarriesItsOutcome() {
        String booked = newId();
        String duplicate = newId();
        ledger.sendCredit(booked, account, 1);
        ledger.sendCredit(duplicate, account, 1);
        ledger.sendCredit(duplicate, account, 1);
        Await.untilEquals("the credits are booked", 2L, Duration.ofSeconds(30), () -> ledger.balance(account));

        Await.until(
                "the span of the booked credit is exported",
                Duration.ofSeconds(30),
                () -> log.linesMentioningAll(
                                "'process ",
                                "CONSUMER",
                                "exactlyonce.message_id=" + booked,
                                "exactlyonce.outcome=processed",
                                "exactlyonce.consumer=" + LedgerClient.CONSUMER,
                                "messaging.destination.name=")
                        == 1);
        Await.until(
                "the duplicate's two spans are exported, one processed, one dropped",
                Duration.ofSeconds(30),
                () -> log.linesMentioningAll("exactlyonce.message_id=" + duplicate, "exactlyonce.outcome=processed")
                                == 1
                        && log.linesMentioningAll(
                                        "exactlyonce.message_id=" + duplicate, "exactlyonce.outcome=duplicate_")
                                == 1);
    }

    @Test
    void theFiguresAreOpenTelemetryMetrics() {
        ledger.sendCredit(newId(), account, 1);
        Await.untilEquals("the credit is booked", 1L, Duration.ofSeconds(30), () -> ledger.balance(account));
        long exportsBefore = log.linesMentioningAll("name=exactlyonce.deliveries", LedgerClient.CONSUMER);

        Await.until(
                "the deliveries counter is exported again",
                Duration.ofSeconds(40),
                () -> log.linesMentioningAll("name=exactlyonce.deliveries", LedgerClient.CONSUMER) > exportsBefore);
        Await.until(
                "the outbox's backlog is exported",
                Duration.ofSeconds(40),
                () -> log.linesMentioning("name=exactlyonce.outbox.backlog") > 0);
    }
}
