package org.exactlyonce.internal.delivery;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** Transactions of a data source's connections, used outside any JTA transaction: the batched receiver's. */
public final class JdbcTransactions implements Transactions {

    private static final Logger LOG = Logger.getLogger(JdbcTransactions.class.getName());

    private final DataSource dataSource;

    public JdbcTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public <T> T inTransaction(Work<T> work) throws Exception {
        try (Connection database = dataSource.getConnection()) {
            boolean autoCommit = database.getAutoCommit();
            database.setAutoCommit(false);
            try {
                T result = work.on(database);
                database.commit();
                return result;
            } catch (Exception | Error e) { // an Error too: the connection goes back to a pool
                rollbackQuietly(database);
                throw e;
            } finally {
                database.setAutoCommit(autoCommit);
            }
        }
    }

    @Override
    public <T> T outside(Work<T> work) throws Exception {
        try (Connection database = dataSource.getConnection()) {
            return work.on(database);
        }
    }

    private static void rollbackQuietly(Connection database) {
        try {
            database.rollback();
        } catch (SQLException e) {
            // the failure being reported is the one that matters; the pool discards a broken connection
            LOG.log(Level.FINE, "a rollback failed", e);
        }
    }
}
