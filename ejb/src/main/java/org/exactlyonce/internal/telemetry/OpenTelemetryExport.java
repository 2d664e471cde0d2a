package org.exactlyonce.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.util.Optional;
import org.exactlyonce.internal.processed.IdTableCounts;

/**
 * Deliveries and figures through MicroProfile Telemetry's OpenTelemetry, exported however the server
 * configures it (OTLP by default; off until {@code otel.sdk.disabled=false}). Each delivery is a
 * {@code CONSUMER} span named {@code process <destination>} with the messaging semantic conventions'
 * attributes and {@code exactlyonce.consumer}, {@code exactlyonce.message_id} and {@code
 * exactlyonce.outcome}; a failed delivery's span has status {@code ERROR}. The figures are the
 * instruments {@code exactlyonce.deliveries}, {@code exactlyonce.processed.last_minute}, {@code
 * exactlyonce.ids}, {@code exactlyonce.oldest_unconfirmed} and {@code exactlyonce.purge.unconfirmable},
 * read from {@link ConsumerMetrics} when the exporter collects, and the outbox's {@code
 * exactlyonce.outbox.backlog}, {@code exactlyonce.outbox.oldest}, {@code exactlyonce.outbox.failing},
 * {@code exactlyonce.outbox.sent} and {@code exactlyonce.outbox.send_failures}, read through {@link
 * OutboxReadings} then.
 */
final class OpenTelemetryExport implements TraceExport {

    private static final String SCOPE = "org.exactlyonce";
    private static final AttributeKey<String> CONSUMER = AttributeKey.stringKey("exactlyonce.consumer");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("exactlyonce.outcome");
    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("exactlyonce.message_id");
    private static final AttributeKey<String> STATE = AttributeKey.stringKey("exactlyonce.state");

    private final OpenTelemetry openTelemetry;
    private final ConsumerMetrics figures;
    private final OutboxReadings outbox;

    private OpenTelemetryExport(OpenTelemetry openTelemetry, ConsumerMetrics figures, OutboxReadings outbox) {
        this.openTelemetry = openTelemetry;
        this.figures = figures;
        this.outbox = outbox;
    }

    /**
     * The export through the container's OpenTelemetry, its instruments registered; empty when the
     * container has no OpenTelemetry bean.
     */
    static Optional<TraceExport> ofTheContainer(ConsumerMetrics figures, OutboxReadings outbox) {
        Instance<OpenTelemetry> openTelemetry = CDI.current().select(OpenTelemetry.class);
        if (!openTelemetry.isResolvable()) {
            return Optional.empty();
        }
        OpenTelemetryExport export = new OpenTelemetryExport(openTelemetry.get(), figures, outbox);
        export.observeFigures();
        return Optional.of(export);
    }

    private void observeFigures() {
        Meter meter = openTelemetry.getMeter(SCOPE);
        meter.counterBuilder("exactlyonce.deliveries")
                .setDescription("Deliveries since the server started, by outcome")
                .buildWithCallback(measurement -> figures.snapshot()
                        .forEach((consumer, counts) -> counts.forEach((outcome, count) -> measurement.record(
                                count, Attributes.of(CONSUMER, consumer, OUTCOME, outcome.label())))));
        meter.gaugeBuilder("exactlyonce.processed.last_minute")
                .setDescription("Messages processed in the last 60 seconds")
                .ofLongs()
                .buildWithCallback(measurement -> figures.snapshot()
                        .keySet()
                        .forEach(consumer -> measurement.record(
                                figures.processedLastMinute(consumer), Attributes.of(CONSUMER, consumer))));
        meter.gaugeBuilder("exactlyonce.ids")
                .setDescription("Processed IDs in the table, by state, as the last purge counted")
                .ofLongs()
                .buildWithCallback(measurement -> figures.countedIdTables().forEach(consumer -> {
                    IdTableCounts counts = figures.idTable(consumer).orElseThrow();
                    measurement.record(counts.unconfirmed(), Attributes.of(CONSUMER, consumer, STATE, "unconfirmed"));
                    measurement.record(counts.acknowledged(), Attributes.of(CONSUMER, consumer, STATE, "acknowledged"));
                }));
        meter.gaugeBuilder("exactlyonce.oldest_unconfirmed")
                .setDescription("Age of the oldest unconfirmed ID at the last purge")
                .setUnit("s")
                .ofLongs()
                .buildWithCallback(measurement -> figures.countedIdTables()
                        .forEach(consumer -> measurement.record(
                                figures.oldestUnconfirmedSeconds(consumer), Attributes.of(CONSUMER, consumer))));
        meter.gaugeBuilder("exactlyonce.purge.unconfirmable")
                .setDescription("1 when the last purge could not confirm some of the consumer's IDs")
                .ofLongs()
                .buildWithCallback(measurement -> figures.countedIdTables()
                        .forEach(consumer -> measurement.record(
                                figures.lastPurgeCouldNotConfirm(consumer).orElse(false) ? 1 : 0,
                                Attributes.of(CONSUMER, consumer))));
        observeOutbox(meter);
    }

    /** The outbox's five instruments, recorded from one read of its figures per collection. */
    private void observeOutbox(Meter meter) {
        ObservableLongMeasurement backlog = meter.gaugeBuilder("exactlyonce.outbox.backlog")
                .setDescription("Outgoing messages committed and not sent yet")
                .ofLongs()
                .buildObserver();
        ObservableLongMeasurement oldest = meter.gaugeBuilder("exactlyonce.outbox.oldest")
                .setDescription("Age of the oldest outgoing message not sent yet; 0 when none waits")
                .setUnit("s")
                .ofLongs()
                .buildObserver();
        ObservableLongMeasurement failing = meter.gaugeBuilder("exactlyonce.outbox.failing")
                .setDescription("Outgoing messages whose last send failed, kept and sent again")
                .ofLongs()
                .buildObserver();
        ObservableLongMeasurement sent = meter.counterBuilder("exactlyonce.outbox.sent")
                .setDescription("Outgoing messages this server sent since it started")
                .buildObserver();
        ObservableLongMeasurement sendFailures = meter.counterBuilder("exactlyonce.outbox.send_failures")
                .setDescription("Sends of outgoing messages that failed since the server started")
                .buildObserver();
        meter.batchCallback(
                () -> outbox.now().ifPresent(now -> {
                    backlog.record(now.backlog());
                    oldest.record(now.oldestSeconds());
                    failing.record(now.failing());
                    sent.record(now.sent());
                    sendFailures.record(now.sendFailures());
                }),
                backlog,
                oldest,
                failing,
                sent,
                sendFailures);
    }

    @Override
    public DeliveryTrace started(String consumer, Message message) {
        String destination = destinationOf(message);
        Span span = openTelemetry
                .getTracer(SCOPE)
                .spanBuilder("process " + destination)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "jms")
                .setAttribute("messaging.operation.type", "process")
                .setAttribute("messaging.operation.name", "process")
                .setAttribute("messaging.destination.name", destination)
                .setAttribute(CONSUMER, consumer)
                .startSpan();
        if (span.isRecording()) { // the broker builds the JMS message ID on each call: not for a span nobody keeps
            span.setAttribute("messaging.message.id", jmsMessageIdOf(message));
        }
        Scope current = span.makeCurrent();
        return new DeliveryTrace() {
            @Override
            public void identified(String messageId) {
                span.setAttribute(MESSAGE_ID, messageId);
            }

            @Override
            public void close() {
                current.close();
                span.end();
            }
        };
    }

    @Override
    public void ended(Outcome outcome) {
        Span span = Span.current();
        span.setAttribute(OUTCOME, outcome.label());
        if (outcome == Outcome.FAILED) {
            span.setStatus(StatusCode.ERROR, "rolled back: the broker redelivers the message");
        }
    }

    private static String destinationOf(Message message) {
        try {
            Destination destination = message.getJMSDestination();
            if (destination instanceof Queue queue) {
                return queue.getQueueName();
            }
            return destination instanceof Topic topic ? topic.getTopicName() : "unknown";
        } catch (JMSException e) {
            return "unknown";
        }
    }

    private static String jmsMessageIdOf(Message message) {
        try {
            return String.valueOf(message.getJMSMessageID());
        } catch (JMSException e) {
            return "unknown";
        }
    }
}
