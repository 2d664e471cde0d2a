package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The test phase's WildFly, started again the way the build started it: {@code it.wildfly.start} holds
 * the arguments of {@code src/test/sh/wildfly.sh}, the first two being its installation and its base
 * directory, where the script keeps the process ID.
 */
final class WildFlyServer implements TestServer {

    private static final Duration RESTART = Duration.ofMinutes(3);

    private final List<String> arguments = Phase.wildFlyStart();
    private final LedgerClient ledger;

    WildFlyServer(LedgerClient ledger) {
        this.ledger = ledger;
    }

    @Override
    public LedgerClient ledger() {
        return ledger;
    }

    /** The WildFly's base directory's name: each test WildFly has its own. */
    @Override
    public String name() {
        return "wildfly-" + Phase.wildFlyBase().getFileName();
    }

    @Override
    public Path pidFile() {
        return Phase.wildFlyBase().resolve("wildfly.pid");
    }

    /** As {@code wildfly.sh} sets it. */
    @Override
    public Path faultInjectionDirectory() {
        return Phase.wildFlyBase().resolve("fault-injection");
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(System.getProperty("it.wildfly.script", "src/test/sh/wildfly.sh"));
        command.addAll(arguments);
        Process start = new ProcessBuilder(command).inheritIO().start();
        if (start.waitFor() != 0) {
            throw new AssertionError("wildfly.sh " + arguments + " failed");
        }
        Await.until("the application answers after the restart", RESTART, ledger::isUp);
    }
}
