package org.exactlyonce.processed;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * Recognises a unique-constraint violation by its SQLState, whichever way the persistence provider
 * wrapped it: neither EclipseLink nor Hibernate throws {@code EntityExistsException} for a flushed
 * insert, so the cause chain is the only portable evidence.
 */
final class UniqueViolations {

    /** SQLState class 23, integrity constraint violation (23505 on PostgreSQL and Derby, 23000 on MariaDB). */
    private static final String INTEGRITY_CONSTRAINT_VIOLATION = "23";

    private UniqueViolations() {}

    /**
     * Only ever asked about the insert of a processed ID, whose sole constraint that can fail is its
     * primary key; that is why any class-23 state counts.
     */
    static boolean isUniqueViolation(Throwable failure) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLException sql && hasIntegrityViolation(sql)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasIntegrityViolation(SQLException first) {
        for (SQLException e = first; e != null; e = e.getNextException()) {
            String state = e.getSQLState();
            if (state != null && state.startsWith(INTEGRITY_CONSTRAINT_VIOLATION)) {
                return true;
            }
        }
        return false;
    }
}
