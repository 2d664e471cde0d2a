package org.exactlyonce.internal.processed;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.HashSet;
import java.util.List;
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

    /**
     * SQLState classes that blame the database, never the statement: a connection that is lost or
     * refused (08), a transaction rolled back by a deadlock, a serialization or a multi-primary
     * certification failure (40), resources the server ran out of (53), an operator's or a failover's
     * intervention, such as a shutdown, a recovery or a statement timeout (57), the server's own I/O
     * (58), and MariaDB's interruptions: a killed connection or statement (70).
     */
    private static final List<String> OUTAGE_CLASSES = List.of("08", "40", "53", "57", "58", "70");

    /**
     * Single SQLStates that blame the database: a transaction on a read-only server, as a standby or a
     * demoted primary is (25006); a lock not granted in time (55P03).
     */
    private static final Set<String> OUTAGE_STATES = Set.of("25006", "55P03");

    /**
     * MariaDB's errors that come with the catch-all SQLState HY000 and blame the server: a lock wait
     * that timed out (1205), a server that is read-only (1290, 1836), a server gone or lost on the way
     * (2006, 2013). Its other outage codes have a state of their own above: a killed connection (1927,
     * 70100), a Galera node not ready (1047, 08S01), a certification failure (1213, 40001).
     */
    private static final Set<Integer> MARIADB_OUTAGE_CODES = Set.of(1205, 1290, 1836, 2006, 2013);

    private static final String MARIADB_GENERAL_ERROR = "HY000";

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
     * Whether the failure says nothing about the message: a lost connection, a server shutting down,
     * failing over or read-only, a deadlock, a serialization or certification failure, a lock or
     * connection wait that timed out, by SQLState, MariaDB's error code or the driver's exception type.
     */
    public static boolean isTransient(Throwable failure) {
        return causes(failure)
                .anyMatch(cause -> cause instanceof SQLTransientException
                        || cause instanceof SQLRecoverableException
                        || cause instanceof SQLNonTransientConnectionException
                        || cause instanceof SQLException sql && chainMatches(sql, SqlStates::blamesTheDatabase));
    }

    private static boolean blamesTheDatabase(SQLException e) {
        String state = e.getSQLState();
        if (state == null) {
            return false;
        }
        return OUTAGE_CLASSES.stream().anyMatch(state::startsWith)
                || OUTAGE_STATES.contains(state)
                || MARIADB_GENERAL_ERROR.equals(state) && MARIADB_OUTAGE_CODES.contains(e.getErrorCode());
    }

    private static Stream<Throwable> causes(Throwable failure) {
        Set<Throwable> seen = new HashSet<>();
        return Stream.iterate(failure, cause -> cause != null && seen.add(cause), Throwable::getCause);
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
