package org.exactlyonce.bench;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A WildFly server set up by {@code wildfly-config/configure.cli} and the benchmark's {@code bench.cli},
 * through {@code standalone.sh} and its management CLI; its JVM options are {@code standalone.conf}'s.
 */
final class WildFlyControl implements ServerControl {

    private static final int MANAGEMENT_PORT = 9990;
    private static final int HTTPS_PORT = 8443;
    private static final Duration STOP = Duration.ofMinutes(2);

    private final Path home;
    private final Path baseDir;
    private final int portOffset;
    private final List<String> settings;
    /** Set since: system properties the next start adds, {@code ledger.consumers} among them. */
    private final Map<String, String> changed = new LinkedHashMap<>(Map.of("ledger.consumers", "1"));

    private HttpClient http;

    /**
     * @param home the installation
     * @param baseDir the server's own configuration, deployments and logs ({@code jboss.server.base.dir})
     * @param portOffset added to every port the server opens
     * @param settings system properties of the server, {@code -Dname=value} each
     */
    WildFlyControl(Path home, Path baseDir, int portOffset, List<String> settings) {
        this.home = home;
        this.baseDir = baseDir;
        this.portOffset = portOffset;
        this.settings = List.copyOf(settings);
    }

    @Override
    public void start() {
        List<String> command = new ArrayList<>(List.of(
                home.resolve("bin/standalone.sh").toString(),
                "-c",
                "standalone-full.xml",
                "-Djboss.server.base.dir=" + baseDir,
                "-Djboss.socket.binding.port-offset=" + portOffset));
        command.addAll(settings);
        changed.forEach((key, value) -> command.add("-D" + key + "=" + value));
        File log = baseDir.resolve("console.log").toFile();
        try {
            new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start WildFly: " + e, e);
        }
    }

    /**
     * Shuts the server down, and kills it when it has not ended within two minutes, so that no run leaves
     * it behind; nothing to do when it does not run (the benchmark's first start begins with a stop).
     */
    @Override
    public void stop() {
        if (processes().findAny().isEmpty()) {
            return;
        }
        cli(":shutdown");
        long deadline = System.nanoTime() + STOP.toNanos();
        while (processes().findAny().isPresent()) {
            if (System.nanoTime() > deadline) {
                processes().forEach(ProcessHandle::destroyForcibly);
                throw new IllegalStateException("WildFly did not stop within " + STOP + ": killed");
            }
            sleep();
        }
    }

    @Override
    public void pause(String endpoint) {
        cli(address(endpoint) + ":stop-delivery");
    }

    @Override
    public void resume(String endpoint) {
        cli(address(endpoint) + ":start-delivery");
    }

    /**
     * A system property, which MicroProfile Config reads: {@code ledger.consumers}, the size of the
     * message-driven beans' instance pool (bench.cli), among them; a bean takes one message at a time, so
     * the pool bounds each consumer's concurrency.
     */
    @Override
    public void setting(String key, String value) {
        changed.put(key, value);
    }

    @Override
    public String processMarker() {
        return "-Djboss.server.base.dir=" + baseDir;
    }

    /**
     * An HTTPS client that trusts the server's own certificate, self-signed for localhost, which WildFly
     * makes at the first TLS handshake and keeps in {@code configuration/application.keystore}
     * (standalone-full.xml's {@code applicationKS}, password {@code password}).
     */
    @Override
    public synchronized HttpClient http() {
        if (http == null) {
            Path keystore = baseDir.resolve("configuration/application.keystore");
            if (!Files.exists(keystore)) {
                shakeHands();
            }
            http = HttpClient.newBuilder()
                    .sslContext(ServerCertificate.trusted(keystore, "JKS", "password".toCharArray()))
                    .build();
        }
        return http;
    }

    /** A TLS handshake with the HTTPS port, refused on this side: the server writes its certificate meanwhile. */
    private void shakeHands() {
        try (SSLSocket socket =
                (SSLSocket) SSLSocketFactory.getDefault().createSocket("localhost", HTTPS_PORT + portOffset)) {
            socket.startHandshake();
        } catch (IOException expected) {
            // no trust store knows the certificate
        }
    }

    /** The address of the applications' HTTPS API. */
    String baseUrl() {
        return "https://localhost:" + (HTTPS_PORT + portOffset);
    }

    /** On the management port, over HTTP; WildFly's readiness checks include its deployments'. */
    @Override
    public URI readiness() {
        return URI.create("http://localhost:" + (MANAGEMENT_PORT + portOffset) + "/health/ready");
    }

    /**
     * A bean's management address: {@code application#module#bean} names a module of an EAR, or a WAR
     * deployed alone when the module is the application's WAR.
     */
    static String address(String endpoint) {
        String[] parts = endpoint.split("#");
        String deployment = parts[1].equals(parts[0] + ".war")
                ? "/deployment=" + parts[1]
                : "/deployment=" + parts[0] + ".ear/subdeployment=" + parts[1];
        return deployment + "/subsystem=ejb3/message-driven-bean=" + parts[2];
    }

    /** Runs one management command on the running server, as its local user. */
    private void cli(String operation) {
        Commands.run(
                new ProcessBuilder(
                        home.resolve("bin/jboss-cli.sh").toString(),
                        "--connect",
                        "--controller=localhost:" + (MANAGEMENT_PORT + portOffset),
                        "--command=" + operation),
                "jboss-cli " + operation);
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while WildFly stops", e);
        }
    }
}
