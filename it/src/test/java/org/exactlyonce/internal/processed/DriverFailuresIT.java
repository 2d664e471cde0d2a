package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import org.exactlyonce.internal.outage.WriteProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The failures a failover, a shutdown, a killed session or a stuck lock raise, raised for real by the
 * drivers the shipped data sources use, against the local PostgreSQL and MariaDB (no server): each must
 * read as the database's failure ({@link SqlStates#isTransient}), which holds the message instead of
 * counting against it, and a statement's own failure must not.
 */
class DriverFailuresIT {

    private static final String POSTGRESQL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    private static final String INSERT_ID =
            "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT) VALUES (?, 'id-1', CURRENT_TIMESTAMP)";

    private final String consumer = "driver-failures/" + UUID.randomUUID();

    @AfterEach
    void deleteTheTestsRows() throws SQLException {
        for (String url : new String[] {POSTGRESQL, MARIADB}) {
            try (Connection connection = DriverManager.getConnection(url);
                    PreparedStatement delete =
                            connection.prepareStatement("DELETE FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = ?")) {
                delete.setString(1, consumer);
                delete.executeUpdate();
            }
        }
    }

    @Test
    void postgresqlsTerminatedSessionIsTheDatabases() throws SQLException {
        try (Connection victim = DriverManager.getConnection(POSTGRESQL);
                Connection operator = DriverManager.getConnection(POSTGRESQL)) {
            int pid = single(victim, "SELECT pg_backend_pid()");
            single(operator, "SELECT CASE WHEN pg_terminate_backend(" + pid + ") THEN 1 ELSE 0 END");

            SQLException terminated = assertThrows(SQLException.class, () -> single(victim, "SELECT 1"));

            assertTransient(terminated, Set.of("57P01", "08006"));
        }
    }

    @Test
    void postgresqlsStatementTimeoutIsTheDatabases() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRESQL)) {
            execute(connection, "SET statement_timeout = 50");

            SQLException timedOut = assertThrows(SQLException.class, () -> execute(connection, "SELECT pg_sleep(2)"));

            assertTransient(timedOut, Set.of("57014"));
        }
    }

    @Test
    void postgresqlsReadOnlyTransactionIsTheDatabases() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRESQL)) {
            connection.setAutoCommit(false);
            execute(connection, "SET TRANSACTION READ ONLY");

            SQLException readOnly = assertThrows(SQLException.class, () -> insertId(connection));

            assertTransient(readOnly, Set.of("25006"));
        }
    }

    @Test
    void postgresqlsLockTimeoutIsTheDatabases() throws SQLException {
        try (Connection holder = DriverManager.getConnection(POSTGRESQL);
                Connection waiter = DriverManager.getConnection(POSTGRESQL)) {
            holder.setAutoCommit(false);
            insertId(holder);
            execute(waiter, "SET lock_timeout = 100");

            SQLException notGranted = assertThrows(SQLException.class, () -> insertId(waiter));

            assertTransient(notGranted, Set.of("55P03"));
            holder.rollback();
        }
    }

    @Test
    void postgresqlsDuplicateIsTheStatements() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRESQL)) {
            insertId(connection);

            SQLException duplicate = assertThrows(SQLException.class, () -> insertId(connection));

            assertTrue(SqlStates.isUniqueViolation(duplicate), duplicate::toString);
            assertFalse(SqlStates.isTransient(duplicate), duplicate::toString);
        }
    }

    /** A standby's sessions are read-only: the write probe must not take one for a database that is up. */
    @Test
    void theWriteProbeCountsAReadOnlyServerAsDown() {
        PGSimpleDataSource primary = postgresqlDataSource();
        PGSimpleDataSource standbyLike = postgresqlDataSource();
        standbyLike.setReadOnly(true);
        standbyLike.setReadOnlyMode("always");

        assertTrue(WriteProbe.takesWrites(primary), "a database that takes writes");
        assertFalse(WriteProbe.takesWrites(standbyLike), "a database that answers, read-only");
    }

    @Test
    void mariaDbsKilledConnectionIsTheDatabases() throws SQLException {
        try (Connection victim = DriverManager.getConnection(MARIADB);
                Connection operator = DriverManager.getConnection(MARIADB)) {
            int id = single(victim, "SELECT CONNECTION_ID()");
            execute(operator, "KILL CONNECTION " + id);

            SQLException killed = assertThrows(SQLException.class, () -> single(victim, "SELECT 1"));

            assertTransient(killed, Set.of("70100", "08000", "08S01"));
        }
    }

    @Test
    void mariaDbsStatementTimeoutIsTheDatabases() throws SQLException {
        try (Connection connection = DriverManager.getConnection(MARIADB)) {
            SQLException timedOut = assertThrows(
                    SQLException.class,
                    () -> execute(connection, "SET STATEMENT max_statement_time = 0.05 FOR SELECT SLEEP(2)"));

            assertTransient(timedOut, Set.of("70100"));
        }
    }

    @Test
    void mariaDbsReadOnlyTransactionIsTheDatabases() throws SQLException {
        try (Connection connection = DriverManager.getConnection(MARIADB)) {
            execute(connection, "START TRANSACTION READ ONLY");

            SQLException readOnly = assertThrows(SQLException.class, () -> insertId(connection));

            assertTransient(readOnly, Set.of("25006"));
            execute(connection, "ROLLBACK");
        }
    }

    @Test
    void mariaDbsLockWaitTimeoutIsTheDatabases() throws SQLException {
        try (Connection holder = DriverManager.getConnection(MARIADB);
                Connection waiter = DriverManager.getConnection(MARIADB)) {
            holder.setAutoCommit(false);
            insertId(holder);
            execute(waiter, "SET SESSION innodb_lock_wait_timeout = 1");

            SQLException notGranted = assertThrows(SQLException.class, () -> insertId(waiter));

            assertTransient(notGranted, Set.of("HY000", "40001"));
            holder.rollback();
        }
    }

    @Test
    void mariaDbsDuplicateIsTheStatements() throws SQLException {
        try (Connection connection = DriverManager.getConnection(MARIADB)) {
            insertId(connection);

            SQLException duplicate = assertThrows(SQLException.class, () -> insertId(connection));

            assertTrue(SqlStates.isUniqueViolation(duplicate), duplicate::toString);
            assertFalse(SqlStates.isTransient(duplicate), duplicate::toString);
        }
    }

    private static void assertTransient(SQLException failure, Set<String> states) {
        assertTrue(
                states.contains(failure.getSQLState()),
                () -> "the driver's state: " + failure + " (" + failure.getSQLState() + ", " + failure.getErrorCode()
                        + ")");
        assertTrue(SqlStates.isTransient(failure), () -> "counted against the message: " + failure);
    }

    private static PGSimpleDataSource postgresqlDataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(POSTGRESQL);
        return dataSource;
    }

    private void insertId(Connection connection) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT_ID)) {
            insert.setString(1, consumer);
            insert.executeUpdate();
        }
    }

    private static int single(Connection connection, String query) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            result.next();
            return result.getInt(1);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
