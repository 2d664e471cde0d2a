package org.exactlyonce.internal.durability;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL: the write-ahead log must reach the disk before a commit returns ({@code fsync}, {@code
 * full_page_writes}, {@code synchronous_commit}), and, on a primary with standbys, a standby must have
 * it too, or a failover to that standby takes the commit back ({@code synchronous_standby_names}). Read
 * with {@code SHOW}, so the values are this session's, as the engine's connections have them.
 */
final class PostgresqlDurability implements CommitDurability {

    static final String FSYNC = "fsync";
    static final String FULL_PAGE_WRITES = "full_page_writes";
    static final String SYNCHRONOUS_COMMIT = "synchronous_commit";
    static final String SYNCHRONOUS_STANDBY_NAMES = "synchronous_standby_names";

    @Override
    public List<String> names() {
        return List.of(FSYNC, FULL_PAGE_WRITES, SYNCHRONOUS_COMMIT, SYNCHRONOUS_STANDBY_NAMES);
    }

    @Override
    public List<DurabilitySetting> read(Connection connection) throws SQLException {
        int standbys = Integer.parseInt(CommitDurability.single(connection, "SELECT count(*) FROM pg_stat_replication")
                .orElse("0"));
        return judge(
                show(connection, FSYNC),
                show(connection, FULL_PAGE_WRITES),
                show(connection, SYNCHRONOUS_COMMIT),
                show(connection, SYNCHRONOUS_STANDBY_NAMES),
                standbys);
    }

    private static String show(Connection connection, String setting) throws SQLException {
        return CommitDurability.single(connection, "SHOW " + setting).orElse("").trim();
    }

    static List<DurabilitySetting> judge(
            String fsync, String fullPageWrites, String synchronousCommit, String standbyNames, int standbys) {
        List<DurabilitySetting> settings = new ArrayList<>();
        settings.add(
                on(fsync)
                        ? DurabilitySetting.durable(FSYNC, fsync, "the log is forced to disk")
                        : DurabilitySetting.notDurable(
                                FSYNC,
                                fsync,
                                "nothing is forced to disk: a crash of the host loses committed transactions or"
                                        + " corrupts the database. Set fsync = on"));
        settings.add(
                on(fullPageWrites)
                        ? DurabilitySetting.durable(FULL_PAGE_WRITES, fullPageWrites, "torn pages are repaired")
                        : DurabilitySetting.notDurable(
                                FULL_PAGE_WRITES,
                                fullPageWrites,
                                "a page half-written by a crash cannot be repaired from the log. Set"
                                        + " full_page_writes = on"));
        String commit = synchronousCommit.toLowerCase(Locale.ROOT);
        boolean synchronousStandbys = !standbyNames.isBlank();
        if (commit.equals("off")) {
            settings.add(DurabilitySetting.notDurable(
                    SYNCHRONOUS_COMMIT,
                    synchronousCommit,
                    "a commit returns before its log is on disk: a crash of the database loses the last"
                            + " commits, whose messages were acknowledged. Set synchronous_commit = on"));
        } else if (commit.equals("local") && synchronousStandbys) {
            settings.add(DurabilitySetting.notDurable(
                    SYNCHRONOUS_COMMIT,
                    synchronousCommit,
                    "a commit does not wait for the synchronous standbys: a failover loses it. Set"
                            + " synchronous_commit = on"));
        } else {
            settings.add(DurabilitySetting.durable(
                    SYNCHRONOUS_COMMIT, synchronousCommit, "a commit waits for its log to be on disk"));
        }
        if (standbys == 0) {
            settings.add(DurabilitySetting.durable(
                    SYNCHRONOUS_STANDBY_NAMES,
                    standbyNames,
                    "no standby streams from this server now; should one be added, name it here"));
        } else if (synchronousStandbys) {
            settings.add(DurabilitySetting.durable(
                    SYNCHRONOUS_STANDBY_NAMES,
                    standbyNames,
                    "a commit waits for a synchronous standby (" + standbys + " streaming)"));
        } else {
            settings.add(DurabilitySetting.notDurable(
                    SYNCHRONOUS_STANDBY_NAMES,
                    standbyNames,
                    standbys + " standby(s) stream asynchronously: a failover to one loses the commits it had"
                            + " not received. Name them in synchronous_standby_names, for instance"
                            + " 'ANY 1 (*)', and keep synchronous_commit on"));
        }
        return settings;
    }

    private static boolean on(String value) {
        return value.equalsIgnoreCase("on");
    }
}
