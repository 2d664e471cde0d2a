package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
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

    @Test
    void postgresqlsShutdownRecoveryAndStartupAreTransient() {
        for (String state : List.of("57P01", "57P02", "57P03")) { // admin_shutdown, crash_shutdown, cannot_connect_now
            assertTrue(SqlStates.isTransient(new PersistenceException(new SQLException("terminating", state))), state);
        }
    }

    @Test
    void aStatementTimeoutIsTransient() {
        assertTrue(SqlStates.isTransient(new SQLException("canceling statement due to statement timeout", "57014")));
        assertTrue(SqlStates.isTransient(new SQLException("max_statement_time exceeded", "70100", 1969)));
    }

    @Test
    void aServerThatTakesNoWritesIsTransient() {
        assertTrue(SqlStates.isTransient(new SQLException("read-only transaction", "25006")));
        assertTrue(SqlStates.isTransient(new SQLException("--read-only option", "HY000", 1290)));
        assertTrue(SqlStates.isTransient(new SQLException("read-only mode", "HY000", 1836)));
    }

    @Test
    void mariaDbsKilledOrLostConnectionIsTransient() {
        assertTrue(SqlStates.isTransient(new SQLException("Connection was killed", "70100", 1927)));
        assertTrue(SqlStates.isTransient(new SQLException("server has gone away", "HY000", 2006)));
        assertTrue(SqlStates.isTransient(new SQLException("Lost connection to server", "HY000", 2013)));
        assertTrue(SqlStates.isTransient(new SQLException("Lock wait timeout exceeded", "HY000", 1205)));
    }

    @Test
    void galerasNodeNotReadyAndCertificationFailureAreTransient() {
        assertTrue(SqlStates.isTransient(new SQLException("WSREP has not yet prepared node", "08S01", 1047)));
        assertTrue(SqlStates.isTransient(new SQLException("Deadlock found when trying to get lock", "40001", 1213)));
    }

    @Test
    void mariaDbsOtherGeneralErrorsAreTheStatements() {
        assertFalse(SqlStates.isTransient(new SQLException("Unknown error", "HY000", 1105)));
        assertFalse(SqlStates.isTransient(new SQLException("a code without MariaDB's state", "XJ001", 1290)));
    }
}
