package org.exactlyonce.internal.durability;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MariaDB: InnoDB must flush its log at every commit ({@code innodb_flush_log_at_trx_commit}), and, with
 * the binary log on, the binary log too ({@code sync_binlog}): after a crash, a transaction the binary
 * log lost is rolled back even if InnoDB had it. A Galera node must be ready and in the primary
 * component ({@code wsrep_ready}), or it refuses writes or, worse, takes them apart from the cluster.
 */
final class MariadbDurability implements CommitDurability {

    static final String FLUSH_LOG_AT_COMMIT = "innodb_flush_log_at_trx_commit";
    static final String SYNC_BINLOG = "sync_binlog";
    static final String WSREP_READY = "wsrep_ready";

    @Override
    public List<String> names() {
        return List.of(FLUSH_LOG_AT_COMMIT, SYNC_BINLOG, WSREP_READY);
    }

    @Override
    public List<DurabilitySetting> read(Connection connection) throws SQLException {
        return judge(
                variable(connection, FLUSH_LOG_AT_COMMIT).orElse(""),
                variable(connection, "log_bin").orElse("OFF"),
                variable(connection, SYNC_BINLOG).orElse(""),
                variable(connection, "wsrep_on"),
                CommitDurability.shown(connection, "SHOW GLOBAL STATUS LIKE '" + WSREP_READY + "'"));
    }

    private static Optional<String> variable(Connection connection, String name) throws SQLException {
        return CommitDurability.shown(connection, "SHOW VARIABLES LIKE '" + name + "'");
    }

    static List<DurabilitySetting> judge(
            String flushLogAtCommit,
            String binaryLog,
            String syncBinlog,
            Optional<String> wsrepOn,
            Optional<String> wsrepReady) {
        List<DurabilitySetting> settings = new ArrayList<>();
        // 3 is MariaDB's 1 with group commit to the binary log: flushed at every commit too
        settings.add(
                flushLogAtCommit.equals("1") || flushLogAtCommit.equals("3")
                        ? DurabilitySetting.durable(
                                FLUSH_LOG_AT_COMMIT, flushLogAtCommit, "the log is flushed at every commit")
                        : DurabilitySetting.notDurable(
                                FLUSH_LOG_AT_COMMIT,
                                flushLogAtCommit,
                                "the log is flushed about once a second: a crash loses the last commits, whose"
                                        + " messages were acknowledged. Set innodb_flush_log_at_trx_commit = 1"));
        if (!binaryLog.equalsIgnoreCase("ON")) {
            settings.add(DurabilitySetting.durable(SYNC_BINLOG, syncBinlog, "the binary log is off"));
        } else if (syncBinlog.equals("1")) {
            settings.add(
                    DurabilitySetting.durable(SYNC_BINLOG, syncBinlog, "the binary log is synced at every commit"));
        } else {
            settings.add(DurabilitySetting.notDurable(
                    SYNC_BINLOG,
                    syncBinlog,
                    "the binary log is not synced at every commit: after a crash, a commit it lost is rolled"
                            + " back, and replicas miss it. Set sync_binlog = 1"));
        }
        if (wsrepOn.filter(on -> on.equalsIgnoreCase("ON")).isPresent()) {
            String ready = wsrepReady.orElse("");
            settings.add(
                    ready.equalsIgnoreCase("ON")
                            ? DurabilitySetting.durable(
                                    WSREP_READY, ready, "the Galera node is in the primary component")
                            : DurabilitySetting.notDurable(
                                    WSREP_READY,
                                    ready,
                                    "the Galera node is not in the primary component: point the data source at"
                                            + " a node that is"));
        }
        return settings;
    }
}
