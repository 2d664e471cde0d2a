package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The test phase's Liberty server ({@code it.server}). */
final class LibertyServer implements TestServer {

    private static final Duration RESTART = Duration.ofMinutes(3);

    private final Path wlp = Path.of(System.getProperty("it.liberty.dir", "target/liberty/wlp"));
    private final String name = System.getProperty("it.server", "it-derby");
    private final LedgerClient ledger;

    LibertyServer(LedgerClient ledger) {
        this.ledger = ledger;
    }

    @Override
    public LedgerClient ledger() {
        return ledger;
    }

    @Override
    public Path pidFile() {
        return wlp.resolve("usr/servers/.pid/" + name + ".pid");
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        Process start = new ProcessBuilder(wlp.resolve("bin/server").toString(), "start", name)
                .inheritIO()
                .start();
        if (!start.waitFor(RESTART.toSeconds(), TimeUnit.SECONDS) || start.exitValue() != 0) {
            throw new AssertionError("server start " + name + " failed");
        }
        Await.until("the application answers after the restart", RESTART, ledger::isUp);
    }
}
