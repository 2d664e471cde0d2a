package org.exactlyonce.batch;

import jakarta.jms.Message;
import java.sql.Connection;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.InvalidMessageException;

/**
 * The application's effect of one message, for a {@link BatchedReceiver}: what {@link
 * AbstractExactlyOnceConsumer#process} is to the message-driven bean.
 */
@FunctionalInterface
public interface BatchProcessor {

    /**
     * Processes one message of a batch, at most once per ID for the receiver's consumer name.
     *
     * <p>Write through {@code database}: it is the connection of the transaction that records the
     * batch's IDs, and its writes commit or roll back with them. Do not commit, roll back or close it,
     * and do not acknowledge the message. The other messages of the batch run on the same connection
     * before and after this one. In the server ({@link BatchedReceivers}) the transaction is a JTA
     * transaction on {@code java:comp/DefaultDataSource}, which a persistence context on that data source
     * joins: writes through it commit with the IDs too (flush them, so that a failure surfaces here).
     * There the transaction, and so this method, runs as a task of the server's default {@code
     * ManagedExecutorService}, not on the receiving thread.
     *
     * <p>Throwing rolls back the whole batch, whose messages are then processed again one per
     * transaction, so this method may run twice for one message, each time in a fresh transaction. An
     * {@link InvalidMessageException} parks the message at once; any other exception has it
     * redelivered until it has failed on the receiver's {@code parkAfterDeliveries}, then parks it. A
     * database failure that says nothing about the message (a lost connection, a failover,
     * a deadlock) holds the batch until the database answers again, and parks nothing.
     *
     * @param message the delivered message
     * @param database the batch's connection, in its transaction
     * @throws Exception any failure, to have the message processed again
     */
    void process(Message message, Connection database) throws Exception;
}
