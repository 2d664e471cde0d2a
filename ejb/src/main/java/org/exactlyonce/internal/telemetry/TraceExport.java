package org.exactlyonce.internal.telemetry;

import jakarta.jms.Message;

/**
 * Where {@link Telemetry} sends each delivery's span and the consumers' figures. OpenTelemetry's types
 * stay behind it: on a server whose applications do not see the OpenTelemetry API, {@link Telemetry}
 * never loads {@link OpenTelemetryExport}, and the engine runs without traces.
 */
interface TraceExport {

    /** Starts a delivery's span and makes it current. */
    DeliveryTrace started(String consumer, Message message);

    /** Records the delivery's outcome on the current span. */
    void ended(Outcome outcome);
}
