package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The test phase's server, for tests that crash it and need it back: a Liberty or a WildFly. */
interface TestServer {

    /** The server of the test phase, as {@code it.wildfly.start} (WildFly) or {@code it.server} (Liberty) names it. */
    static TestServer of(LedgerClient ledger) {
        return WildFlyServer.isTheTestServer() ? new WildFlyServer(ledger) : new LibertyServer(ledger);
    }

    LedgerClient ledger();

    /** The server's name, as a test reports it. */
    String name();

    /** The file the server's process ID is in. */
    Path pidFile();

    /** Starts the server again and waits until the application answers. */
    void restart() throws IOException, InterruptedException;

    /** Waits until the server process has gone, as it does when a fault-injection crash halts it. */
    default void awaitCrash() {
        awaitCrash(Duration.ofMinutes(1));
    }

    default void awaitCrash(Duration timeout) {
        Await.until("the server has crashed", timeout, () -> !ledger().answers());
    }

    /** Kills the server's process with {@code kill -9}: no shutdown, no flush, as a power cut would. */
    default void kill() throws IOException, InterruptedException {
        String pid = Files.readString(pidFile()).trim();
        Process kill = new ProcessBuilder("kill", "-9", pid).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -9 " + pid + " failed");
        }
        awaitCrash();
    }
}
