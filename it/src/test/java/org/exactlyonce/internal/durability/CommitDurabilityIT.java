package org.exactlyonce.internal.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The durability settings as the local PostgreSQL and MariaDB report them through the shipped drivers
 * (no server): what the guard reads at start, in readiness and on the console.
 */
class CommitDurabilityIT {

    private static final String POSTGRESQL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private static final String MARIADB = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @Test
    void postgresqlReportsEverySettingItJudges() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRESQL)) {
            CommitDurability reader = CommitDurability.of(connection).orElseThrow();

            List<DurabilitySetting> settings = reader.read(connection);

            assertInstanceOf(PostgresqlDurability.class, reader);
            assertEquals(
                    reader.names(),
                    settings.stream().map(DurabilitySetting::name).toList());
            assertEquals(List.of(), notDurable(settings), "the test machine's PostgreSQL keeps its commits");
        }
    }

    /** A session's setting is what its commits do: the engine's connections are read, not the server's file. */
    @Test
    void postgresqlsSessionWithoutSynchronousCommitIsRefused() throws SQLException {
        try (Connection connection = DriverManager.getConnection(POSTGRESQL)) {
            try (Statement set = connection.createStatement()) {
                set.execute("SET synchronous_commit = off");
            }

            List<DurabilitySetting> settings =
                    CommitDurability.of(connection).orElseThrow().read(connection);

            assertEquals(List.of("synchronous_commit"), notDurable(settings));
        }
    }

    @Test
    void mariaDbReportsEverySettingItJudges() throws SQLException {
        try (Connection connection = DriverManager.getConnection(MARIADB)) {
            CommitDurability reader = CommitDurability.of(connection).orElseThrow();

            List<DurabilitySetting> settings = reader.read(connection);

            assertInstanceOf(MariadbDurability.class, reader);
            assertEquals(
                    List.of("innodb_flush_log_at_trx_commit", "sync_binlog"),
                    settings.stream().map(DurabilitySetting::name).toList(),
                    "no Galera here: wsrep_on is off");
            assertEquals(List.of(), notDurable(settings), "the test machine's MariaDB keeps its commits");
        }
    }

    private static List<String> notDurable(List<DurabilitySetting> settings) {
        return settings.stream()
                .filter(setting -> !setting.durable())
                .map(DurabilitySetting::name)
                .toList();
    }
}
