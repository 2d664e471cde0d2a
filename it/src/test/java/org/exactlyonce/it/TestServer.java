package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The test phase's server, for tests that crash it and need it back: a Liberty or a WildFly. */
interface TestServer {

    /** The server of the test phase ({@link Phase}). */
    static TestServer of(LedgerClient ledger) {
        return Phase.onWildFly() ? new WildFlyServer(ledger) : new LibertyServer(ledger);
    }

    LedgerClient ledger();

    /** The server's name, as a test reports it. */
    String name();

    /** The file the server's process ID is in. */
    Path pidFile();

    /**
     * The server's fault-injection marker directory ({@code ledger.fault-injection.marker-dir}), where
     * a halt writes the step it halted at into the file {@code halted}.
     */
    Path faultInjectionDirectory();

    /** Forgets the step of an earlier halt, before a crash is armed. */
    default void forgetEarlierHalts() throws IOException {
        Files.deleteIfExists(haltedFile());
    }

    /**
     * The step the server's fault injection halted it at since {@link #forgetEarlierHalts}; empty when
     * it halted at none (it went down for another reason, or it is still up).
     */
    default Optional<String> haltedAt() throws IOException {
        Path halted = haltedFile();
        return Files.exists(halted) ? Optional.of(Files.readString(halted).trim()) : Optional.empty();
    }

    /** Starts the server again and waits until the application answers. */
    void restart() throws IOException, InterruptedException;

    /** Waits until the server process has gone, as it does when a fault-injection crash halts it. */
    default void awaitCrash() {
        awaitCrash(Duration.ofMinutes(1));
    }

    default void awaitCrash(Duration timeout) {
        Await.until("the server has crashed", timeout, () -> !ledger().answers());
    }

    /** Waits until the server has crashed, and checks that its fault injection halted it at the step. */
    default void awaitHaltAt(String step) throws IOException {
        awaitCrash();
        assertHaltedAt(step);
    }

    /**
     * Checks that the server, down now, was halted by its fault injection at the step, and forgets it: a
     * server that went down for another reason, or at another step, proves nothing about this one.
     */
    default void assertHaltedAt(String step) throws IOException {
        Optional<String> halted = haltedAt();
        forgetEarlierHalts();
        if (!halted.equals(Optional.of(step))) {
            throw new AssertionError(name() + " went down, but its fault injection halted it at "
                    + halted.orElse("no step") + ", not at " + step);
        }
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

    private Path haltedFile() {
        return faultInjectionDirectory().resolve("halted");
    }
}
