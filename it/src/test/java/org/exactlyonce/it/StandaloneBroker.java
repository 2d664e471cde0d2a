package org.exactlyonce.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The test phase's standalone ActiveMQ Artemis broker, where it has one: {@code it.artemis.instance} is
 * the broker's instance directory (with the process ID that {@code src/test/sh/artemis.sh} keeps there)
 * and {@code it.artemis.port} its port.
 */
final class StandaloneBroker {

    private final Path instance;
    private final String port;

    private StandaloneBroker(Path instance, String port) {
        this.instance = instance;
        this.port = port;
    }

    /** The phase's broker; empty when the server consumes from a broker of its own. */
    static Optional<StandaloneBroker> ofThePhase() {
        String instance = System.getProperty("it.artemis.instance", "");
        return instance.isBlank()
                ? Optional.empty()
                : Optional.of(new StandaloneBroker(Path.of(instance), System.getProperty("it.artemis.port")));
    }

    /** {@code kill -9} of the broker, then a start on the same journal, as after a power cut. */
    void killAndStart() throws IOException, InterruptedException {
        String pid = Files.readString(instance.resolve("artemis.pid")).trim();
        run("kill", "-9", pid);
        while (new ProcessBuilder("kill", "-0", pid).start().waitFor() == 0) {
            Thread.sleep(100); // gone, before another process opens its journal
        }
        run("bash", System.getProperty("it.artemis.script", "src/test/sh/artemis.sh"), instance.toString(), port);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).inheritIO().start();
        if (process.waitFor() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed");
        }
    }
}
