package org.exactlyonce.internal.delivery;

import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * JTA transactions begun through a {@code UserTransaction}, on the data source of the application's
 * persistence unit: a connection taken inside the transaction is the one the persistence context uses,
 * so the ID commits with the application's writes, in one phase. A bean's run on its own thread; a
 * batched receiver's each run on a thread of the server's executor, as a task of their own: on Open
 * Liberty the receiver's thread holds its JMS session in a local transaction containment, which
 * refuses to begin a global transaction (WLTC0037E).
 */
public final class JtaTransactions implements Transactions {

    private static final Logger LOG = Logger.getLogger(JtaTransactions.class.getName());

    private final UserTransaction transaction;

    private final DataSource dataSource;

    /** Where each transaction runs; {@code null}: on the calling thread. */
    private final ExecutorService threads;

    /** Transactions on the calling thread, a bean's. */
    public JtaTransactions(UserTransaction transaction, DataSource dataSource) {
        this(transaction, dataSource, null);
    }

    /** Transactions each run as a task of its own on the server's executor, the caller waiting for it. */
    public JtaTransactions(UserTransaction transaction, DataSource dataSource, ExecutorService threads) {
        this.transaction = transaction;
        this.dataSource = dataSource;
        this.threads = threads;
    }

    @Override
    public <T> T inTransaction(Work<T> work) throws Exception {
        if (threads == null) {
            return inThisThread(work);
        }
        Future<T> done = threads.submit(() -> inThisThread(work));
        try {
            return done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private <T> T inThisThread(Work<T> work) throws Exception {
        transaction.begin();
        try {
            T result;
            try (Connection database = dataSource.getConnection()) {
                result = work.on(database);
            }
            transaction.commit();
            return result;
        } catch (Exception | Error e) {
            rollbackQuietly();
            throw e;
        }
    }

    @Override
    public <T> T outside(Work<T> work) throws Exception {
        try (Connection database = dataSource.getConnection()) {
            return work.on(database);
        }
    }

    private void rollbackQuietly() {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (Exception e) {
            // the failure being reported is the one that matters; an unfinished transaction times out
            LOG.log(Level.WARNING, "a rollback failed", e);
        }
    }
}
