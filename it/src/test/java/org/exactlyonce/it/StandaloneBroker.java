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
        kill();
        start();
    }

    /** {@code kill -9} of the broker; returns once its process has gone. */
    void kill() throws IOException {
        long pid = pid();
        ProcessHandle broker = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no broker process " + pid));
        broker.destroyForcibly(); // SIGKILL
        broker.onExit().join(); // gone, before another process opens its journal
    }

    /**
     * Stops the broker's process without ending it ({@code kill -STOP}): its connections stay open and it
     * answers nothing, as a broker that hangs.
     */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Lets a frozen broker go on ({@code kill -CONT}). */
    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        long pid = pid();
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " failed");
        }
    }

    private long pid() throws IOException {
        return Long.parseLong(Files.readString(instance.resolve("artemis.pid")).trim());
    }

    /** Starts the broker on its journal; returns once it listens. */
    void start() throws IOException, InterruptedException {
        String script = System.getProperty("it.artemis.script", "src/test/sh/artemis.sh");
        Process start = new ProcessBuilder("bash", script, instance.toString(), port)
                .inheritIO()
                .start();
        if (start.waitFor() != 0) {
            throw new AssertionError("artemis.sh " + instance + " " + port + " failed");
        }
    }
}
