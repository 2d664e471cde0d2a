package org.exactlyonce.it;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The local MariaDB server the MariaDB test server uses, taken away under load as {@link OutageIT} does,
 * and started again the way the test command's {@code prepare-machine.sh} starts it.
 */
final class MariaDb implements DatabaseOutages {

    private static final String CLIENT = "mariadb --protocol=tcp -h 127.0.0.1 -u root -N -B test -e ";

    private static final String START = "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd";

    private static final Duration START_WITHIN = Duration.ofSeconds(60);

    @Override
    public CrashSuite.DatabaseOutage stopped() {
        return new CrashSuite.DatabaseOutage("stopped", () -> end("pkill -KILL -x mariadbd"), MariaDb::start);
    }

    @Override
    public CrashSuite.DatabaseOutage restartedFast() {
        return new CrashSuite.DatabaseOutage(
                "fast-restart",
                () -> {
                    end("mariadb-admin --protocol=tcp -h 127.0.0.1 -u root shutdown");
                    start();
                },
                () -> {});
    }

    @Override
    public CrashSuite.DatabaseOutage hung() {
        return new CrashSuite.DatabaseOutage(
                "hung", () -> Shell.run("pkill -STOP -x mariadbd"), () -> Shell.run("pkill -CONT -x mariadbd"));
    }

    /** Kills every other connection to the test database, as an operator's {@code KILL} does. */
    @Override
    public int terminateSessions() throws IOException, InterruptedException {
        List<String> ids = Arrays.stream(Shell.output(CLIENT + "\"SELECT ID FROM information_schema.PROCESSLIST"
                                + " WHERE DB = 'test' AND ID <> CONNECTION_ID()\"")
                        .split("\\s+"))
                .filter(id -> !id.isBlank())
                .toList();
        for (String id : ids) {
            // a session may have ended on its own since it was listed
            Shell.output(CLIENT + "'KILL CONNECTION " + id + "' || true");
        }
        return ids.size();
    }

    /**
     * Ends the server with the command, and waits until its process has gone: {@code start-stop-daemon
     * --oknodo} does nothing while one still runs, and a server that was shutting down would stay down.
     */
    private static void end(String command) throws IOException, InterruptedException {
        Shell.run(command);
        Await.until("mariadbd has ended", START_WITHIN, () -> answers("! pgrep -x mariadbd >/dev/null"));
    }

    private static void start() throws IOException, InterruptedException {
        Shell.run(START);
        Await.until(
                "MariaDB answers again",
                START_WITHIN,
                () -> answers("mariadb-admin --protocol=tcp -h 127.0.0.1 -u root ping >/dev/null 2>&1"));
    }

    private static boolean answers(String command) {
        try {
            return Shell.succeeds(command);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
