package org.exactlyonce.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An Open Liberty server, through its {@code server} command and its {@code bootstrap.properties}. */
final class LibertyControl implements ServerControl {

    private final Path serverDir;
    private final URI readiness;
    private HttpClient http;

    /**
     * @param serverDir the server's folder, {@code usr/servers/<name>}
     * @param baseUrl its HTTPS address
     */
    LibertyControl(Path serverDir, String baseUrl) {
        this.serverDir = serverDir;
        this.readiness = URI.create(baseUrl + "/health/ready");
    }

    /** The server's name, as its command line shows it. */
    String name() {
        return serverDir.getFileName().toString();
    }

    @Override
    public void start() {
        run("start");
    }

    @Override
    public void stop() {
        run("stop");
    }

    @Override
    public void pause(String endpoint) {
        run("pause", "--target=" + endpoint);
    }

    @Override
    public void resume(String endpoint) {
        run("resume", "--target=" + endpoint);
    }

    /**
     * A bootstrap property, which MicroProfile Config reads: {@code ledger.consumers}, which the
     * activation specifications take as their maximum concurrency, among them.
     */
    @Override
    public void setting(String key, String value) throws IOException {
        Path bootstrap = serverDir.resolve("bootstrap.properties");
        String properties = Files.readString(bootstrap);
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(key) + "=.*$").matcher(properties);
        Files.writeString(
                bootstrap,
                line.find()
                        ? line.replaceAll(Matcher.quoteReplacement(key + "=" + value))
                        : properties + (properties.endsWith("\n") ? "" : "\n") + key + "=" + value + "\n");
    }

    /** The trailing blank keeps other servers whose names start alike (bench-scale-1 …) out. */
    @Override
    public String processMarker() {
        return "ws-server.jar " + name() + " ";
    }

    /**
     * An HTTPS client made at first use: Liberty writes its self-signed certificate (for localhost) at its
     * first start, and the client trusts that one, host name checked.
     */
    @Override
    public synchronized HttpClient http() {
        if (http == null) {
            http = HttpClient.newBuilder()
                    .sslContext(ServerCertificate.trustedIn(serverDir))
                    .build();
        }
        return http;
    }

    @Override
    public URI readiness() {
        return readiness;
    }

    /** Runs Liberty's {@code server} command on this server. */
    private void run(String action, String... options) {
        Path command = serverDir.resolve("../../../bin/server").normalize();
        ProcessBuilder builder = new ProcessBuilder(command.toString(), action, name());
        builder.command().addAll(List.of(options));
        try {
            Commands.run(builder, "server " + action + " " + name());
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\n" + logEnd(), e);
        }
    }

    /** Why a server did not start or stop, as far as its own log says: the log's last lines. */
    private String logEnd() {
        for (String log : List.of("logs/messages.log", "logs/console.log")) {
            Path file = serverDir.resolve(log);
            try {
                List<String> lines = Files.readAllLines(file);
                return "the end of " + file + ":\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                // not written: the next one, or none
            }
        }
        return "the server wrote no log under " + serverDir.resolve("logs");
    }
}
