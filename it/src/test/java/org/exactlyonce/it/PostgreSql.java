package org.exactlyonce.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The local PostgreSQL cluster the test servers use, stopped and started as an outage would, and the
 * test server's database on it ({@code it.database}), written to as another server would.
 */
final class PostgreSql implements DatabaseOutages {

    private final String database;

    /** A shell command that controls the cluster; {@code stop} or {@code start} is appended. */
    private final String control = System.getProperty(
            "it.postgresql.control", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main");

    /** The test phase's database. */
    PostgreSql() {
        this(System.getProperty("it.database", "test"));
    }

    PostgreSql(String database) {
        this.database = database;
    }

    /** Stops it the way a crash of the database host looks to clients: connections cut, none accepted. */
    void stop() throws IOException, InterruptedException {
        Shell.run(control + " stop -m immediate");
    }

    void start() throws IOException, InterruptedException {
        Shell.run(control + " start");
    }

    /** Restarts it as an operator does: sessions told to end, then a clean start. */
    void restartFast() throws IOException, InterruptedException {
        Shell.run(control + " restart -m fast");
    }

    @Override
    public int terminateSessions() throws IOException, InterruptedException {
        return Integer.parseInt(value("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND pid <> pg_backend_pid()"));
    }

    /**
     * Hangs the whole cluster, as a partitioned or frozen host looks to its clients: connections stay
     * open and new ones are accepted by the kernel, but nothing answers.
     */
    void hang() throws IOException, InterruptedException {
        Shell.run("pkill -STOP -x postgres");
    }

    void wakeUp() throws IOException, InterruptedException {
        Shell.run("pkill -CONT -x postgres");
    }

    @Override
    public CrashSuite.DatabaseOutage stopped() {
        return new CrashSuite.DatabaseOutage("stopped", this::stop, this::start);
    }

    @Override
    public CrashSuite.DatabaseOutage restartedFast() {
        return new CrashSuite.DatabaseOutage("fast-restart", this::restartFast, () -> {});
    }

    @Override
    public CrashSuite.DatabaseOutage hung() {
        return new CrashSuite.DatabaseOutage("hung", this::hang, this::wakeUp);
    }

    /** Runs SQL on the test server's database, through psql: trust authentication on the local cluster. */
    void execute(String sql) throws IOException, InterruptedException {
        value(sql);
    }

    /** The one value a query answers, as psql prints it unaligned. */
    String value(String sql) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        "psql",
                        "-h",
                        "127.0.0.1",
                        "-U",
                        "postgres",
                        "-v",
                        "ON_ERROR_STOP=1",
                        "-At",
                        "-d",
                        database,
                        "-c",
                        sql)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError("failed: " + sql);
        }
        return output;
    }
}
