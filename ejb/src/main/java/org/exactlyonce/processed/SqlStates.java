package org.exactlyonce.processed;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

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

    /** Whether the failure says nothing about the message: a lost connection, a deadlock, a serialization failure. */
    public static boolean isTransient(Throwable failure) {
        return hasState(failure, CONNECTION_EXCEPTION) || hasState(failure, TRANSACTION_ROLLBACK);
    }

    private static boolean hasState(Throwable failure, String stateClass) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLException sql && chainHasState(sql, stateClass)) {
                return true;
            }
        }
        return false;
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
