package org.exactlyonce.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Shell commands the tests run on this machine to take databases away, each bounded in time. */
final class Shell {

    private static final long MINUTES = 2;

    private Shell() {}

    /** Runs the command; fails the test when it fails. */
    static void run(String command) throws IOException, InterruptedException {
        if (!succeeds(command)) {
            throw new AssertionError("failed: " + command);
        }
    }

    static boolean succeeds(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", command).inheritIO().start();
        if (!process.waitFor(MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return process.exitValue() == 0;
    }

    /** What the command prints, trimmed; fails the test when it fails. */
    static String output(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!process.waitFor(MINUTES, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new AssertionError("failed: " + command);
        }
        return output;
    }
}
