package org.exactlyonce.processed;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Classifies database failures by SQLState, whichever way the persistence provider wrapped them:
 * neither EclipseLink nor Hibernate throws {@code EntityExistsException} for a flushed insert, so the
 * cause chain is the only portable evidence.
 */
public final class SqlStates {

    /** Integrity constraint violation: 23505 on PostgreSQL and Derby, 23000 on MariaDB. */
    private static final String INTEGRITY_CONSTRAINT_VIOLATION = "23";

    /** Connection exception: the database is unreachable or went away. */
    private static final String CONNECTION_EXCEPTION = "08";

    /** Transaction rollback: serialization failure, deadlock. */
    private static final String TRANSACTION_ROLLBACK = "40";

    private SqlStates() {}

    /**
     * Whether the failure is a unique violation. Only ever asked about an insert whose sole constraint
     * that can fail is its key; that is why any class-23 state counts.
     */
    public static boolean isUniqueViolation(Throwable failure) {
        return hasState(failure, INTEGRITY_CONSTRAINT_VIOLATION);
    }

    /**
     * Whether the failure says nothing about the message: a lost connection, a deadlock, a serialization
     * failure, a lock or connection wait that timed out, by SQLState or by the driver's exception type.
     */
    public static boolean isTransient(Throwable failure) {
        return hasState(failure, CONNECTION_EXCEPTION)
                || hasState(failure, TRANSACTION_ROLLBACK)
                || causes(failure)
                        .anyMatch(cause -> cause instanceof SQLTransientException
                                || cause instanceof SQLRecoverableException
                                || cause instanceof SQLNonTransientConnectionException);
    }

    private static Stream<Throwable> causes(Throwable failure) {
        Set<Throwable> seen = new HashSet<>();
        return Stream.iterate(failure, cause -> cause != null && seen.add(cause), Throwable::getCause);
    }

    private static boolean hasState(Throwable failure, String stateClass) {
        return causes(failure).anyMatch(cause -> cause instanceof SQLException sql && chainHasState(sql, stateClass));
    }

    private static boolean chainHasState(SQLException first, String stateClass) {
        for (SQLException e = first; e != null; e = e.getNextException()) {
            String state = e.getSQLState();
            if (state != null && state.startsWith(stateClass)) {
                return true;
            }
        }
        return false;
    }
}
