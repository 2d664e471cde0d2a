package org.exactlyonce.internal.processed;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Classifies database failures by SQLState, whichever way the persistence provider wrapped them:
 * neither EclipseLink nor Hibernate throws {@code EntityExistsException} for a flushed insert, so the
 * cause chain is the only portable evidence.
 */
public final class SqlStates {

    /** Unique violation on PostgreSQL and Derby. */
    private static final String UNIQUE_VIOLATION = "23505";

    /** MariaDB's (and MySQL's) state for every integrity constraint violation; its error code tells which. */
    private static final String INTEGRITY_CONSTRAINT_VIOLATION = "23000";

    /** MariaDB's duplicate key errors: ER_DUP_ENTRY and ER_DUP_ENTRY_WITH_KEY_NAME. */
    private static final Set<Integer> MARIADB_DUPLICATE_KEY = Set.of(1062, 1586);

    /** Connection exception: the database is unreachable or went away. */
    private static final String CONNECTION_EXCEPTION = "08";

    /** Transaction rollback: serialization failure, deadlock. */
    private static final String TRANSACTION_ROLLBACK = "40";

    private SqlStates() {}

    /**
     * Whether the failure is a unique or primary key violation, and no other integrity constraint's
     * (a NOT NULL column, a foreign key): only a duplicate key means that the row is there already.
     */
    public static boolean isUniqueViolation(Throwable failure) {
        return causes(failure)
                .anyMatch(cause -> cause instanceof SQLException sql && chainMatches(sql, SqlStates::isDuplicateKey));
    }

    private static boolean isDuplicateKey(SQLException e) {
        return UNIQUE_VIOLATION.equals(e.getSQLState())
                || INTEGRITY_CONSTRAINT_VIOLATION.equals(e.getSQLState())
                        && MARIADB_DUPLICATE_KEY.contains(e.getErrorCode());
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
        return causes(failure)
                .anyMatch(cause -> cause instanceof SQLException sql
                        && chainMatches(
                                sql,
                                e -> e.getSQLState() != null && e.getSQLState().startsWith(stateClass)));
    }

    private static boolean chainMatches(SQLException first, Predicate<SQLException> test) {
        for (SQLException e = first; e != null; e = e.getNextException()) {
            if (test.test(e)) {
                return true;
            }
        }
        return false;
    }
}
