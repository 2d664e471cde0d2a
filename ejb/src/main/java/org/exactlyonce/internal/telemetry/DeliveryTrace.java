package org.exactlyonce.internal.telemetry;

/** The trace of one delivery, current on the delivering thread until it is closed. */
public interface DeliveryTrace extends AutoCloseable {

    /** Records the application's ID of the delivered message, once it is read. */
    void identified(String messageId);

    /** Ends the delivery's span. */
    @Override
    void close();
}
