package org.exactlyonce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape, read from its compiled classes: which types are public and why, and that no
 * package depends on itself through others. A type made public, or a dependency that closes a loop,
 * fails here until the change says why.
 */
class EngineLayoutTest {

    private static final Path CLASSES = Path.of("target", "classes");

    /** What users extend, throw, call and observe: the API. */
    private static final Set<String> API = Set.of(
            "consume.AbstractExactlyOnceConsumer",
            "consume.BatchedReceiver",
            "consume.BatchedReceiver.Acknowledgement",
            "consume.BatchedReceiver.Builder",
            "consume.BatchedReceivers",
            "consume.BatchProcessor",
            "consume.InvalidMessageException",
            "park.ParkReason",
            "outbox.Outbox",
            "outbox.OutgoingMessage",
            "protocol.ProtocolStep",
            "protocol.ProtocolStep.Step");

    /** What the console, a module of its own, reads and operates. */
    private static final Set<String> FOR_THE_CONSOLE = Set.of(
            "broker.BrokerConnections",
            "consume.ConsumerDestination",
            "consume.ConsumerDestination.Kind",
            "consume.LocalConsumers",
            "message.BodyType",
            "outage.DatabaseOutage",
            "outbox.OutboxFigures",
            "outbox.UnsentMessage",
            "park.ParkedMessage",
            "park.ParkedMessages",
            "park.ParkedMessages.Replay",
            "processed.IdTableCounts",
            "processed.ProcessedMessage",
            "processed.ProcessedMessage.Key",
            "processed.ProcessedMessage.State",
            "processed.ProcessedMessages",
            "purge.Purge",
            "purge.PurgeReport",
            "telemetry.ConsumerMetrics",
            "telemetry.Outcome");

    /** Public because a specification says so: enterprise beans, and CDI extensions a service loader makes. */
    private static final Set<String> FOR_THE_CONTAINER = Set.of(
            "consume.ConsumerDestinations",
            "consume.ConsumerNameCheck",
            "consume.SettingsCheck",
            "outbox.DirectSendCheck",
            "outbox.OutboxRelay",
            "processed.IdTableCheck");

    /** One feature's type that another feature of the engine uses. */
    private static final Set<String> BETWEEN_FEATURES = Set.of(
            "broker.ApplicationIds",
            "broker.BrokerCannotTell",
            "broker.BrokerConnections.Visitor",
            "broker.BrokerView",
            "broker.BrokerView.Candidate",
            "broker.MessageEndpoints",
            "broker.artemis.ArtemisView",
            "broker.liberty.LibertyEndpoints",
            "broker.liberty.MessagingEngineView",
            "broker.wildfly.WildFlyEndpoints",
            "consume.DeliveriesInFlight",
            "consume.MessageIds",
            "message.MessageBodies",
            "message.MessageCopies",
            "message.MessageCopies.Copy",
            "message.MessageCopies.Headers",
            "message.MessageCopies.StoredMessage",
            "outage.DatabaseCalls",
            "outage.TransientDatabaseFailure",
            "platform.BrokerChoice",
            "park.ParkedRows",
            "processed.FirstDeliveries",
            "processed.IdRows",
            "processed.IdRows.IdRow",
            "processed.ProcessedMessages.Duplicate",
            "processed.SqlStates",
            "processed.StoredIds",
            "telemetry.DeliveryTrace",
            "telemetry.OutboxReadings",
            "telemetry.OutboxReadings.Reading",
            "telemetry.Telemetry");

    private static final Pattern PACKAGE_EDGE =
            Pattern.compile("^\\s+(org\\.exactlyonce\\S*)\\s+->\\s+(org\\.exactlyonce\\S*)\\s");

    @Test
    void theOnlyPublicTypesAreTheApiAndThoseAnotherModuleOrTheContainerNeeds() throws IOException {
        Set<String> expected = new TreeSet<>();
        Stream.of(API, FOR_THE_CONSOLE, FOR_THE_CONTAINER, BETWEEN_FEATURES).forEach(expected::addAll);

        assertEquals(expected, publicTypes(), "the public types, without org.exactlyonce.");
    }

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        Map<String, Set<String>> uses = packageDependencies();
        assertTrue(uses.size() > 5, "jdeps found the engine's packages: " + uses.keySet());

        List<List<String>> loops = new ArrayList<>();
        uses.keySet().forEach(start -> loopThrough(start, start, uses, new ArrayList<>(), loops));
        assertEquals(List.of(), loops, "package loops");
    }

    private static Set<String> publicTypes() throws IOException {
        try (Stream<Path> files = Files.walk(CLASSES)) {
            return files.map(file -> CLASSES.relativize(file).toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("package-info"))
                    .map(name -> name.substring(0, name.length() - ".class".length())
                            .replace(java.io.File.separatorChar, '.'))
                    .filter(EngineLayoutTest::isVisibleOutsideItsPackage)
                    .map(name -> name.substring("org.exactlyonce.".length()).replace('$', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** A public top-level type, or a public member type of one, is: a nested type counts as much as any other. */
    private static boolean isVisibleOutsideItsPackage(String className) {
        try {
            for (Class<?> type = Class.forName(className, false, EngineLayoutTest.class.getClassLoader());
                    type != null;
                    type = type.getEnclosingClass()) {
                if (type.isAnonymousClass() || type.isLocalClass() || !Modifier.isPublic(type.getModifiers())) {
                    return false;
                }
            }
            return true;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className, e);
        }
    }

    /** Package to the engine's packages it uses, as the JDK's {@code jdeps} reads the classes. */
    private static Map<String, Set<String>> packageDependencies() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new AssertionError("jdeps is part of the JDK the build runs on; none found"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "-verbose:package",
                "-e",
                "org\\.exactlyonce\\..*",
                CLASSES.toString());
        assertEquals(0, status, "jdeps: " + err);

        Map<String, Set<String>> uses = new TreeMap<>();
        out.toString().lines().map(PACKAGE_EDGE::matcher).filter(Matcher::find).forEach(edge -> {
            if (!edge.group(1).equals(edge.group(2))) {
                uses.computeIfAbsent(edge.group(1), p -> new TreeSet<>()).add(edge.group(2));
            }
        });
        return uses;
    }

    /** Adds each path from {@code at} back to {@code start} whose packages come after {@code start}, once. */
    private static void loopThrough(
            String start, String at, Map<String, Set<String>> uses, List<String> path, List<List<String>> loops) {
        path.add(at);
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                loops.add(List.copyOf(path));
            } else if (next.compareTo(start) > 0 && !path.contains(next)) {
                loopThrough(start, next, uses, path, loops);
            }
        }
        path.remove(path.size() - 1);
    }
}
