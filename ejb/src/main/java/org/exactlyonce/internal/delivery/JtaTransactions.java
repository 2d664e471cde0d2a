package org.exactlyonce.internal.delivery;

import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * JTA transactions begun through a bean's {@code UserTransaction}, on the data source of the
 * application's persistence unit: a connection taken inside the transaction is the one the persistence
 * context uses, so the ID commits with the application's writes, in one phase.
 */
public final class JtaTransactions implements Transactions {

    private static final Logger LOG = Logger.getLogger(JtaTransactions.class.getName());

    private final UserTransaction transaction;

    private final DataSource dataSource;

    public JtaTransactions(UserTransaction transaction, DataSource dataSource) {
        this.transaction = transaction;
        this.dataSource = dataSource;
    }

    @Override
    public <T> T inTransaction(Work<T> work) throws Exception {
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
