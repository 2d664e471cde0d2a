package org.exactlyonce.telemetry;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import java.util.logging.Logger;

/**
 * What a delivery reports: its outcome, counted in {@link ConsumerMetrics} for the console and the
 * Prometheus scrape, and one span per delivery with OpenTelemetry where the server offers MicroProfile
 * Telemetry to the application (see {@link OpenTelemetryExport}).
 */
@ApplicationScoped
public class Telemetry {

    private static final Logger LOG = Logger.getLogger(Telemetry.class.getName());

    @Inject
    ConsumerMetrics metrics;

    @Inject
    Instance<TraceExport> exports;

    private TraceExport export;

    @PostConstruct
    void findExport() {
        if (exports.isResolvable()) {
            export = exports.get();
        } else {
            export = new NoTraces();
            LOG.info("the application does not see the OpenTelemetry API: deliveries are counted, not traced");
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

    /** The export of a server whose applications have no OpenTelemetry API. */
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
