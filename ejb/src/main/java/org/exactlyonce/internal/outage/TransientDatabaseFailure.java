package org.exactlyonce.internal.outage;

/**
 * A database failure that says nothing about the message being processed: a lost connection, a
 * failover, a deadlock ({@code SqlStates#isTransient}). The attempt is retried with back-off;
 * a message never burns its deliveries, nor is it parked, because of one.
 */
public class TransientDatabaseFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TransientDatabaseFailure(Throwable cause) {
        super(String.valueOf(cause.getMessage()), cause);
    }

    public TransientDatabaseFailure(String why) {
        super(why);
    }
}
