package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class SqlStatesTest {

    @Test
    void findsAUniqueViolationWrappedByTheProvider() {
        var derby = new SQLIntegrityConstraintViolationException("duplicate key", "23505");
        var eclipseLink = new RuntimeException("DatabaseException", derby);

        assertTrue(SqlStates.isUniqueViolation(new PersistenceException("flush failed", eclipseLink)));
    }

    @Test
    void findsMariaDbsGenericIntegrityState() {
        assertTrue(SqlStates.isUniqueViolation(
                new PersistenceException(new SQLException("Duplicate entry", "23000", 1062))));
    }

    @Test
    void aNotNullViolationIsNoDuplicate() {
        assertFalse(SqlStates.isUniqueViolation(
                new PersistenceException(new SQLException("null value in column", "23502"))));
        assertFalse(SqlStates.isUniqueViolation(
                new PersistenceException(new SQLException("Column cannot be null", "23000", 1048))));
    }

    @Test
    void aForeignKeyViolationIsNoDuplicate() {
        assertFalse(SqlStates.isUniqueViolation(
                new PersistenceException(new SQLException("violates foreign key constraint", "23503"))));
    }

    @Test
    void findsAViolationInTheNextExceptionChain() {
        var batch = new SQLException("batch entry failed", "XJ208");
        batch.setNextException(new SQLException("duplicate key value", "23505"));

        assertTrue(SqlStates.isUniqueViolation(new PersistenceException(batch)));
    }

    @Test
    void aLostConnectionIsNoDuplicate() {
        assertFalse(
                SqlStates.isUniqueViolation(new PersistenceException(new SQLException("connection refused", "08001"))));
    }

    @Test
    void aDeadlockIsNoDuplicate() {
        assertFalse(
                SqlStates.isUniqueViolation(new PersistenceException(new SQLException("deadlock detected", "40P01"))));
    }

    @Test
    void aLostConnectionIsTransient() {
        assertTrue(SqlStates.isTransient(new PersistenceException(new SQLException("connection refused", "08001"))));
    }

    @Test
    void aDeadlockIsTransient() {
        assertTrue(SqlStates.isTransient(new PersistenceException(new SQLException("deadlock detected", "40P01"))));
    }

    @Test
    void aConnectionWaitThatTimedOutIsTransientWithoutAState() {
        assertTrue(SqlStates.isTransient(
                new PersistenceException(new SQLTransientConnectionException("no connection available in time"))));
    }

    @Test
    void aUniqueViolationIsNotTransient() {
        assertFalse(SqlStates.isTransient(new PersistenceException(new SQLException("duplicate key", "23505"))));
    }

    @Test
    void aFailureWithoutSqlCauseIsNoDuplicate() {
        assertFalse(SqlStates.isUniqueViolation(new PersistenceException("no SQL here")));
    }
}
