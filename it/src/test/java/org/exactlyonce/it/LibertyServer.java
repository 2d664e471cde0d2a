package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The test phase's Liberty server, for tests that crash it and need it back. */
final class LibertyServer {

    private static final Duration RESTART = Duration.ofMinutes(3);

    private final Path wlp = Path.of(System.getProperty("it.liberty.dir", "target/liberty/wlp"));
    private final String name = System.getProperty("it.server", "it-derby");
    private final LedgerClient ledger;

    LibertyServer(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /** Waits until the server process has gone, as it does when a fault-injection crash halts it. */
    void awaitCrash() {
        awaitCrash(Duration.ofMinutes(1));
    }

    void awaitCrash(Duration timeout) {
        Await.until("the server has crashed", timeout, () -> !ledger.answers());
    }

    /** Kills the server's process with {@code kill -9}: no shutdown, no flush, as a power cut would. */
    void kill() throws IOException, InterruptedException {
        String pid = Files.readString(wlp.resolve("usr/servers/.pid/" + name + ".pid"))
                .trim();
        Process kill = new ProcessBuilder("kill", "-9", pid).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -9 " + pid + " failed");
        }
        awaitCrash();
    }

    /** Starts the server again and waits until the application answers. */
    void restart() throws IOException, InterruptedException {
        Process start = new ProcessBuilder(wlp.resolve("bin/server").toString(), "start", name)
                .inheritIO()
                .start();
        if (!start.waitFor(RESTART.toSeconds(), TimeUnit.SECONDS) || start.exitValue() != 0) {
            throw new AssertionError("server start " + name + " failed");
        }
        Await.until("the application answers after the restart", RESTART, ledger::isUp);
    }
}
