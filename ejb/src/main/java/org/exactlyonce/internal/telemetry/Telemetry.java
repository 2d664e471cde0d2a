package org.exactlyonce.internal.telemetry;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What a delivery reports: its outcome, counted in {@link ConsumerMetrics} for the console and the
 * Prometheus scrape, and one span per delivery with OpenTelemetry where the server offers MicroProfile
 * Telemetry to the application and its SDK is on (see {@link OpenTelemetryExport}).
 */
@ApplicationScoped
public class Telemetry {

    private static final Logger LOG = Logger.getLogger(Telemetry.class.getName());

    @Inject
    ConsumerMetrics metrics;

    @Inject
    OutboxReadings outbox;

    /**
     * MicroProfile Telemetry's own switch, read as the specification defines it. While it is true (the
     * default) the engine starts no span and registers no instrument: WildFly's disabled SDK still builds
     * and ends a recording span for each delivery and drops it (a twentieth of a delivery's profile
     * samples there, though no throughput change could be measured).
     */
    @Inject
    @ConfigProperty(name = "otel.sdk.disabled", defaultValue = "true")
    boolean sdkDisabled;

    private TraceExport export;

    @PostConstruct
    void findExport() {
        if (!seesOpenTelemetry()) {
            export = new NoTraces();
            LOG.info("the application does not see the OpenTelemetry API: deliveries are counted, not traced");
        } else if (sdkDisabled) {
            export = new NoTraces();
            LOG.info(
                    "otel.sdk.disabled is true (MicroProfile Telemetry's default): deliveries are counted, not traced");
        } else {
            export = OpenTelemetryExport.ofTheContainer(metrics, outbox).orElseGet(() -> {
                LOG.info("the server offers no OpenTelemetry: deliveries are counted, not traced");
                return new NoTraces();
            });
        }
    }

    /**
     * Whether the application sees the OpenTelemetry API, which a server without MicroProfile Telemetry
     * does not show it. Asked before {@link OpenTelemetryExport} is loaded: a bean whose fields or
     * methods name types the container cannot load makes it warn at every start.
     */
    private static boolean seesOpenTelemetry() {
        try {
            Class.forName("io.opentelemetry.api.OpenTelemetry", false, Telemetry.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Starts the trace of a delivery; close it when the delivery ends. */
    public DeliveryTrace delivery(String consumer, Message message) {
        return export.started(consumer, message);
    }

    /** Counts a delivery's outcome and records it on the delivery's trace. */
    public void counted(String consumer, Outcome outcome) {
        metrics.count(consumer, outcome);
        export.ended(outcome);
    }

    /** The export of a server whose applications have no OpenTelemetry API, or whose SDK is off. */
    private static final class NoTraces implements TraceExport, DeliveryTrace {
        @Override
        public DeliveryTrace started(String consumer, Message message) {
            return this;
        }

        @Override
        public void ended(Outcome outcome) {}

        @Override
        public void identified(String messageId) {}

        @Override
        public void close() {}
    }
}
