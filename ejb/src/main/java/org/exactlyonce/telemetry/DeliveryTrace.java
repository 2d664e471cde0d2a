package org.exactlyonce.telemetry;

import static org.exactlyonce.Internal.Reason.ANOTHER_FEATURE;

import org.exactlyonce.Internal;

/** The trace of one delivery, current on the delivering thread until it is closed. */
@Internal(ANOTHER_FEATURE)
public interface DeliveryTrace extends AutoCloseable {

    /** Records the application's ID of the delivered message, once it is read. */
    void identified(String messageId);

    /** Ends the delivery's span. */
    @Override
    void close();
}
