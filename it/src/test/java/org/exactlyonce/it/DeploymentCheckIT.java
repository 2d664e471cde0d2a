package org.exactlyonce.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.exactlyonce.it.misnamed.MisnamedConsumer;
import org.exactlyonce.it.sending.SendingConsumer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * What the engine refuses when an application is deployed, before any message reaches it. Each test
 * drops an application of its own into the running server's deployment folder, beside the sample:
 * the engine's module, taken from the sample's EAR, and a web module holding one consumer. It runs early
 * in its phase, right after {@link ConsumerIdentityIT}, as it ran in a phase of its own before: it
 * deletes its applications before the phase's other tests run (WildFly undeploys them at its deployment
 * scanner's next pass, up to 5 s later, which is why {@link SendingConsumer} selects no message).
 */
@Order(2)
class DeploymentCheckIT {

    private static final Duration DEPLOYMENT = Duration.ofSeconds(90);

    private final Path deployments = Phase.deployments();
    private final String failureCode = Phase.deploymentFailureCode();
    private final ServerLog log = new ServerLog();

    @Test
    void aConsumerNameTheTableCannotHoldFailsTheDeployment() throws IOException {
        String refusal = "exactly-once consumer " + MisnamedConsumer.class.getName() + " cannot start: its name '"
                + MisnamedConsumer.NAME + "' has 101 characters";
        long failuresBefore = log.linesMentioningAll(failureCode, "misnamed");
        long refusalsBefore = log.linesMentioning(refusal);

        deployUntil(
                "misnamed",
                MisnamedConsumer.class,
                "the server fails the deployment, saying why",
                () -> log.linesMentioningAll(failureCode, "misnamed") > failuresBefore
                        && log.linesMentioning(refusal) > refusalsBefore); // WildFly: on the next line
    }

    @Test
    void aConsumerThatHoldsAConnectionFactoryIsWarnedOfSendsInsideProcess() throws IOException {
        String warning = "exactly-once consumer " + SendingConsumer.class.getName()
                + " holds a ConnectionFactory (field onward): a JMS send inside process() goes out even when the"
                + " transaction rolls back";
        long warningsBefore = log.linesMentioning(warning);

        deployUntil(
                "sending",
                SendingConsumer.class,
                "the server warns of sends inside process()",
                () -> log.linesMentioning(warning) > warningsBefore);
    }

    /** Drops the application into the server, waits until the server says what is expected, and takes it away. */
    private void deployUntil(String name, Class<?> consumer, String expected, BooleanSupplier said) throws IOException {
        Path ear = deployments.resolve(name + ".ear");
        writeApplication(ear, consumer);
        try {
            Await.until(expected, DEPLOYMENT, said);
        } finally {
            Files.delete(ear);
            for (String marker : List.of(".failed", ".deployed")) { // WildFly's scanner's markers
                Files.deleteIfExists(ear.resolveSibling(name + ".ear" + marker));
            }
        }
    }

    /** An EAR of the engine's module and a web module holding one consumer class, as a user builds it. */
    private static void writeApplication(Path ear, Class<?> consumer) throws IOException {
        Path sample = Path.of(System.getProperty("it.ear"));
        Path partial = ear.resolveSibling(ear.getFileName() + ".part"); // the scanners never see half an EAR
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(partial));
                ZipFile engine = new ZipFile(sample.toFile())) {
            out.putNextEntry(new ZipEntry("exactly-once.jar"));
            try (InputStream in = engine.getInputStream(engine.getEntry("exactly-once.jar"))) {
                in.transferTo(out);
            }
            out.putNextEntry(new ZipEntry(ear.getFileName().toString().replace(".ear", ".war")));
            writeWebModule(out, consumer);
        }
        Files.move(partial, ear);
    }

    private static void writeWebModule(OutputStream target, Class<?> consumer) throws IOException {
        String classFile = consumer.getName().replace('.', '/') + ".class";
        ZipOutputStream war = new ZipOutputStream(target);
        war.putNextEntry(new ZipEntry("WEB-INF/classes/" + classFile));
        try (InputStream in = consumer.getClassLoader().getResourceAsStream(classFile)) {
            in.transferTo(war);
        }
        war.putNextEntry(new ZipEntry("WEB-INF/beans.xml")); // a bean archive: CDI shows the engine its beans
        war.write("<beans bean-discovery-mode=\"annotated\" version=\"4.0\"/>".getBytes(StandardCharsets.UTF_8));
        war.finish(); // the EAR's stream stays open
    }
}
