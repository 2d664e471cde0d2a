package org.exactlyonce.internal.delivery;

import jakarta.jms.Message;
import java.sql.Connection;

/**
 * An {@code Error} that the application's processing of a message threw (a stack overflow, a class that
 * cannot be loaded, an assertion, memory that ran out on one huge message), carried as an exception: it
 * fails that message, which is redelivered and parked after the limit as any failing one is, instead
 * of ending the thread that delivers it.
 */
public final class ProcessingError extends Exception {

    private static final long serialVersionUID = 1L;

    public ProcessingError(Error cause) {
        super("processing threw " + cause, cause);
    }

    /** Runs the processing, an {@code Error} it throws carried as a {@link ProcessingError}. */
    public static void carried(Delivery.Processing processing, Message message, Connection database) throws Exception {
        try {
            processing.process(message, database);
        } catch (Error e) {
            throw new ProcessingError(e);
        }
    }
}
