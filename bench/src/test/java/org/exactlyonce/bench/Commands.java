package org.exactlyonce.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The servers' own command-line tools, run to their end. */
final class Commands {

    private Commands() {}

    /**
     * Runs the command and returns what it printed.
     *
     * @throws IllegalStateException when it fails, with what it printed
     */
    static String run(ProcessBuilder command, String what) {
        try {
            Process process = command.redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException(what + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.command().get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + what, e);
        }
    }
}
