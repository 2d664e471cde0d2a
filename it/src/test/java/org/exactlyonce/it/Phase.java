package org.exactlyonce.it;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The test phase's server, as its failsafe execution names it: a WildFly by its start arguments ({@code
 * it.wildfly.start}, those of {@code src/test/sh/wildfly.sh}: installation, base directory, port offset,
 * …), else a Liberty test server by name ({@code it.server}, it-derby when none). Its addresses, log and
 * deployment folder are read from the server's own configuration, a Liberty's bootstrap properties or a
 * WildFly's port offset, so that the tests hold no port of their own. An execution whose server is made
 * otherwise (a user's, with ports in its server.xml) gives its address as {@code it.base-url}.
 */
final class Phase {

    private static final String WILDFLY_START = "it.wildfly.start";
    private static final int WILDFLY_HTTPS = 8443;

    private Phase() {}

    /** Whether the phase's server is a WildFly. */
    static boolean onWildFly() {
        return !System.getProperty(WILDFLY_START, "").isBlank();
    }

    /** The arguments {@code wildfly.sh} started the phase's WildFly with. */
    static List<String> wildFlyStart() {
        return Arrays.asList(System.getProperty(WILDFLY_START, "").trim().split("\\s+"));
    }

    /** The phase's Liberty server. */
    static String libertyServer() {
        return System.getProperty("it.server", "it-derby");
    }

    /** Where the phase's server serves HTTPS. */
    static String baseUrl() {
        String given = System.getProperty("it.base-url");
        if (given != null) {
            return given;
        }
        return onWildFly()
                ? "https://localhost:"
                        + (WILDFLY_HTTPS + Integer.parseInt(wildFlyStart().get(2)))
                : baseUrlOf(libertyServer());
    }

    /** Where a Liberty test server serves HTTPS. */
    static String baseUrlOf(String libertyServer) {
        return "https://localhost:" + bootstrapProperty(libertyServer, "https.port");
    }

    /** Where the phase's second server serves HTTPS: the Liberty test server {@code it.second-server}. */
    static String secondBaseUrl() {
        return baseUrlOf(System.getProperty("it.second-server"));
    }

    /** Where the phase's Liberty server serves plain HTTP. */
    static String httpUrl() {
        return "http://localhost:" + bootstrapProperty(libertyServer(), "http.port");
    }

    /** The port of the phase's Liberty messaging engine. */
    static int jmsPort() {
        return Integer.parseInt(bootstrapProperty(libertyServer(), "jms.port"));
    }

    /** The phase's server log: a WildFly's server.log, a Liberty's messages.log. */
    static Path log() {
        return onWildFly()
                ? wildFlyBase().resolve("log/server.log")
                : libertyServers().resolve(libertyServer()).resolve("logs/messages.log");
    }

    /** The folder the phase's server deploys what is dropped into it from. */
    static Path deployments() {
        return onWildFly()
                ? wildFlyBase().resolve("deployments")
                : libertyServers().resolve(libertyServer()).resolve("dropins");
    }

    /** The message code the phase's server logs a failed deployment with. */
    static String deploymentFailureCode() {
        return onWildFly() ? "WFLYCTL0013" : "CWWKZ0002E";
    }

    /** The Liberty installation the test servers run in ({@code it.liberty.dir}). */
    static Path libertyInstallation() {
        return Path.of(System.getProperty("it.liberty.dir", "target/liberty/wlp"));
    }

    /** The Liberty installation's folder of servers. */
    static Path libertyServers() {
        return libertyInstallation().resolve("usr/servers");
    }

    /** The base directory of the phase's WildFly: its configuration, deployments, log and process ID. */
    static Path wildFlyBase() {
        return Path.of(wildFlyStart().get(1));
    }

    /** A bootstrap property of a Liberty test server (a later line overrides an earlier one, as Liberty reads them). */
    private static String bootstrapProperty(String server, String key) {
        Path file = libertyServers().resolve(server).resolve("bootstrap.properties");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the test server's " + file, e);
        }
        String value = properties.getProperty(key);
        if (value == null) {
            throw new IllegalStateException(file + " sets no " + key);
        }
        return value.trim();
    }
}
