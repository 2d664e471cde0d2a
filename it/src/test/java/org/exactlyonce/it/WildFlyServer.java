package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The test phase's WildFly, started again the way the build started it: {@code it.wildfly.start} holds
 * the arguments of {@code src/test/sh/wildfly.sh}, the first two being its installation and its base
 * directory, where the script keeps the process ID.
 */
final class WildFlyServer implements TestServer {

    private static final String START = "it.wildfly.start";
    private static final Duration RESTART = Duration.ofMinutes(3);

    private final List<String> arguments =
            Arrays.asList(System.getProperty(START, "").trim().split("\\s+"));
    private final LedgerClient ledger;

    WildFlyServer(LedgerClient ledger) {
        this.ledger = ledger;
    }

    static boolean isTheTestServer() {
        return !System.getProperty(START, "").isBlank();
    }

    @Override
    public LedgerClient ledger() {
        return ledger;
    }

    /** The WildFly's base directory's name: each test WildFly has its own. */
    @Override
    public String name() {
        return "wildfly-" + Path.of(arguments.get(1)).getFileName();
    }

    @Override
    public Path pidFile() {
        return Path.of(arguments.get(1), "wildfly.pid");
    }

    /** As {@code wildfly.sh} sets it. */
    @Override
    public Path faultInjectionDirectory() {
        return Path.of(arguments.get(1), "fault-injection");
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
