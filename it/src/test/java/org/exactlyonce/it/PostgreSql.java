package org.exactlyonce.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The local PostgreSQL cluster the test servers use, stopped and started as an outage would, and the
 * test server's database on it ({@code it.database}), written to as another server would.
 */
final class PostgreSql {

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
        run(control + " stop -m immediate");
    }

    void start() throws IOException, InterruptedException {
        run(control + " start");
    }

    /**
     * Hangs the whole cluster, as a partitioned or frozen host looks to its clients: connections stay
     * open and new ones are accepted by the kernel, but nothing answers.
     */
    void hang() throws IOException, InterruptedException {
        run("pkill -STOP -x postgres");
    }

    void wakeUp() throws IOException, InterruptedException {
        run("pkill -CONT -x postgres");
    }

    /** Stopped for a while, as a crashed host looks. */
    CrashSuite.DatabaseOutage stopped() {
        return new CrashSuite.DatabaseOutage(this::stop, this::start);
    }

    /** Hung for a while, as a partitioned or frozen host looks. */
    CrashSuite.DatabaseOutage hung() {
        return new CrashSuite.DatabaseOutage(this::hang, this::wakeUp);
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

    private static void run(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", command).inheritIO().start();
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError("failed: " + command);
        }
    }
}
