package org.exactlyonce.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.stream.Stream;

/**
 * How the benchmark starts, stops and steers one kind of application server. Everything else, the
 * sample's API, the console's and the database, is the same on every server.
 */
interface ServerControl {

    /** Starts the server in the background; {@link #readiness()} says when it is ready. */
    void start();

    /** Stops the server and waits until its process has ended. */
    void stop();

    /**
     * Stops a message-driven bean's deliveries.
     *
     * @param endpoint {@code application#module#bean}, as Open Liberty's {@code server pause --target} names it
     */
    void pause(String endpoint);

    /** Starts a message-driven bean's deliveries again. */
    void resume(String endpoint);

    /** How many messages each consumer takes at a time from the next start on. */
    default void consumers(int consumers) throws IOException {
        setting("ledger.consumers", String.valueOf(consumers));
    }

    /** Sets a MicroProfile Config key of the server from its next start on. */
    void setting(String key, String value) throws IOException;

    /** A part of the server process's command line that no other process's has. */
    String processMarker();

    /**
     * The processes whose command lines carry the marker, read as {@code /proc/<pid>/cmdline} reads
     * (where {@link CpuMeter} finds them too): every argument ends with a separator.
     */
    default Stream<ProcessHandle> processes() {
        return ProcessHandle.allProcesses()
                .filter(process -> process.info()
                        .commandLine()
                        .filter(line -> (line + " ").contains(processMarker()))
                        .isPresent());
    }

    /** The client for the server's HTTP API. */
    HttpClient http();

    /** The address that answers 200 once the server and its applications are ready. */
    URI readiness();
}
