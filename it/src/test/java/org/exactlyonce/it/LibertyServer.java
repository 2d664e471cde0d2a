package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A test Liberty server: the test phase's ({@code it.server}), or another one of the phase's by name. */
final class LibertyServer implements TestServer {

    private static final Duration RESTART = Duration.ofMinutes(3);

    private final Path wlp = Phase.libertyInstallation();
    private final String name;
    private final LedgerClient ledger;

    LibertyServer(LedgerClient ledger) {
        this(ledger, Phase.libertyServer());
    }

    LibertyServer(LedgerClient ledger, String name) {
        this.ledger = ledger;
        this.name = name;
    }

    @Override
    public LedgerClient ledger() {
        return ledger;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Path pidFile() {
        return wlp.resolve("usr/servers/.pid/" + name + ".pid");
    }

    /** Relative to the server's directory, where Liberty starts it. */
    @Override
    public Path faultInjectionDirectory() {
        return wlp.resolve("usr/servers/" + name + "/fault-injection");
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        server("start");
        Await.until("the application answers after the restart", RESTART, ledger::isUp);
    }

    /** Stops the server the orderly way. */
    void stop() throws IOException, InterruptedException {
        server("stop");
    }

    private void server(String action) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(wlp.resolve("bin/server").toString(), action, name)
                .inheritIO()
                .start();
        if (!process.waitFor(RESTART.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError("server " + action + " " + name + " failed");
        }
    }
}
