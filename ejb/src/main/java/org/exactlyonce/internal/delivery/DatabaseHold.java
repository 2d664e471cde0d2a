package org.exactlyonce.internal.delivery;

/**
 * What a delivery does while the database does not answer: the part of {@link DatabaseRetry} that
 * differs between the server's message-driven beans, which share one probe and hand their message
 * back after a while, and a batched receiver, which holds its batch for as long as it runs.
 */
public interface DatabaseHold {

    /** Whether the database is known to be down already, so that an attempt waits before it tries. */
    public boolean knownDown();

    /** Whether the database answers a probe right now. */
    public boolean answersNow();

    /**
     * Waits until the database answers again.
     *
     * @return whether it does; false when the delivery is to give up and hand its message back
     */
    public boolean awaitBack() throws InterruptedException;
}
