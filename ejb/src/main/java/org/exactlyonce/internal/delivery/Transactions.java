package org.exactlyonce.internal.delivery;

import java.sql.Connection;

/**
 * Where a {@link Delivery} gets its database transactions: a transaction to run work in, and a
 * connection to read on outside one. The message-driven bean's are JTA transactions begun through its
 * {@code UserTransaction} ({@link JtaTransactions}), so that the application's persistence context
 * joins them; the batched receiver's are its data source's own ({@link JdbcTransactions}).
 */
public interface Transactions {

    /**
     * Runs the work in a transaction of its own, committed when the work returns and rolled back when it
     * throws.
     */
    public <T> T inTransaction(Work<T> work) throws Exception;

    /** Runs a read on a connection outside any transaction. */
    public <T> T outside(Work<T> work) throws Exception;

    /** Database work on the connection it is given. */
    @FunctionalInterface
    public interface Work<T> {
        T on(Connection database) throws Exception;
    }
}
