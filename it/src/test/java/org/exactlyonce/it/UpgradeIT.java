package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A release of the user's application (orders/) as the maven-ear-plugin builds it by default: its
 * module's file carries the version, {@code orders-ejb-1.0.jar}, then {@code orders-ejb-1.1.jar} in
 * the next release, deployed over the first. The module's name changes with each release; the
 * consumer's name must not, or every ID processed before the upgrade stops counting and an order the
 * producer sends again after it is booked twice.
 */
class UpgradeIT {

    private static final String CONSUMER = "org.exactlyonce.orders.OrderConsumer";
    private static final int ORDERS = 20;
    private static final Duration DEPLOYMENT = Duration.ofMinutes(3);
    private static final Duration DELIVERIES = Duration.ofMinutes(2);

    private final LedgerClient server = new LedgerClient();
    private final ServerLog log = new ServerLog();
    private final PostgreSql database = new PostgreSql(System.getProperty("it.orders.database", "orders"));

    @Test
    void anOrderSentAgainAfterAReleaseThatRenamesTheModuleIsBookedOnce() throws Exception {
        Path deployed = deployedEar();
        Path original =
                Files.copy(deployed, Path.of("target", "orders-as-built.ear"), StandardCopyOption.REPLACE_EXISTING);
        Path activationSpecs = Phase.onWildFly() ? null : activateTheReleasedModules();
        int first = ThreadLocalRandom.current().nextInt(1_000_000, 2_000_000_000 - ORDERS);
        try {
            deploy(release(original, "1.0"), deployed);
            send(first);
            Await.untilEquals("release 1.0 books every order", (long) ORDERS, DELIVERIES, () -> booked(first));

            deploy(release(original, "1.1"), deployed);
            send(first);
            Await.until(
                    "release 1.1 drops every order sent again as a duplicate, or books one",
                    DELIVERIES,
                    () -> duplicates() >= ORDERS || booked(first) > ORDERS);

            assertEquals(ORDERS, booked(first), "each order booked once, across the upgrade");
        } finally {
            deploy(original, deployed);
            if (activationSpecs != null) {
                Files.delete(activationSpecs);
            }
        }
    }

    /** Where the user's server deploys its EAR from. */
    private static Path deployedEar() {
        return Phase.onWildFly()
                ? Phase.wildFlyBase().resolve("deployments/orders.ear")
                : Phase.libertyServers().resolve(Phase.libertyServer()).resolve("apps/orders.ear");
    }

    /**
     * Liberty keys an activation specification by application, module and bean: a user whose module
     * names carry the version adds one for each release. Here, as a configuration drop-in.
     */
    private static Path activateTheReleasedModules() throws IOException {
        StringBuilder specs = new StringBuilder("<server>\n");
        for (String version : List.of("1.0", "1.1")) {
            specs.append("    <jmsActivationSpec id=\"orders/orders-ejb-")
                    .append(version)
                    .append("/OrderConsumer\">\n")
                    .append("        <properties.wasJms destinationRef=\"OrdersQueue\" maxConcurrency=\"4\"/>\n")
                    .append("    </jmsActivationSpec>\n");
        }
        specs.append("</server>\n");
        Path dropIn = Phase.libertyServers()
                .resolve(Phase.libertyServer())
                .resolve("configDropins/overrides/orders-releases.xml");
        Files.createDirectories(dropIn.getParent());
        Files.writeString(dropIn, specs);
        return dropIn;
    }

    /** The EAR as built, with its consumer's module named as the maven-ear-plugin names it in a release. */
    private static Path release(Path asBuilt, String version) throws IOException {
        String module = "orders-ejb-" + version + ".jar";
        Path release = Path.of("target", "orders-" + version + ".ear");
        try (ZipFile ear = new ZipFile(asBuilt.toFile());
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(release))) {
            for (Enumeration<? extends ZipEntry> entries = ear.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                try (InputStream in = ear.getInputStream(entry)) {
                    if (entry.getName().equals("META-INF/application.xml")) {
                        out.putNextEntry(new ZipEntry(entry.getName()));
                        String descriptor = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                        out.write(descriptor
                                .replace("<ejb>orders-ejb.jar</ejb>", "<ejb>" + module + "</ejb>")
                                .getBytes(StandardCharsets.UTF_8));
                    } else {
                        out.putNextEntry(
                                new ZipEntry(entry.getName().equals("orders-ejb.jar") ? module : entry.getName()));
                        in.transferTo(out);
                    }
                }
            }
        }
        return release;
    }

    /** Deploys the EAR over the one deployed, and waits until the server says it has redeployed it. */
    private void deploy(Path ear, Path deployed) throws IOException {
        String[] redeployed = Phase.onWildFly()
                ? new String[] {"WFLYSRV0016", "orders.ear"} // Replaced deployment
                : new String[] {"CWWKZ0003I", "orders"}; // The application ... updated
        long before = log.linesMentioningAll(redeployed);
        Path partial = deployed.resolveSibling("orders.ear.part"); // the scanners never see half an EAR
        Files.copy(ear, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, deployed, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Await.until(
                "the server redeploys " + ear.getFileName(),
                DEPLOYMENT,
                () -> log.linesMentioningAll(redeployed) > before
                        && server.call("GET", "/exactly-once/api/consumers", "operator", false)
                                        .statusCode()
                                == 200);
    }

    private void send(int first) {
        assertEquals(
                200,
                server.call(
                                "POST",
                                "/orders-sender/api/orders?first=" + first + "&count=" + ORDERS + "&copies=1",
                                null,
                                false)
                        .statusCode());
    }

    private long booked(int first) {
        try {
            return bookedIn(first);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private long bookedIn(int first) throws IOException, InterruptedException {
        List<String> quoted = new ArrayList<>();
        for (int n = first; n < first + ORDERS; n++) {
            quoted.add("'order-" + n + "'");
        }
        return Long.parseLong(
                database.value("SELECT COUNT(*) FROM ORDERS WHERE DESCRIPTION IN (" + String.join(",", quoted) + ")"));
    }

    /** Duplicates the console counts since the application last started. */
    private long duplicates() {
        JsonObject consumer = server.consumer(CONSUMER, "operator");
        if (consumer == null) {
            return 0;
        }
        JsonObject deliveries = consumer.getJsonObject("deliveries");
        return deliveries.getJsonNumber("duplicate_already_committed").longValue()
                + deliveries.getJsonNumber("duplicate_lost_race").longValue();
    }
}
