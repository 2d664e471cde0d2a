package org.exactlyonce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.inject.spi.Extension;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
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
import org.exactlyonce.Internal.Reason;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape, read from its compiled classes: which types are public and why, and that no
 * package depends on itself through others. A type made public without saying why, or a dependency that
 * closes a loop, fails here.
 */
class EngineLayoutTest {

    private static final Path CLASSES = Path.of("target", "classes");

    /**
     * What users extend, throw, call and observe: the API, the public types not marked {@link Internal}
     * (with their public member types).
     */
    private static final Set<String> API = Set.of(
            "Internal",
            "Internal.Reason",
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

    /**
     * The public member types of internal types, internal with them: listed, so that a new one is a
     * change that says why it is public (an entity's key class, a row or a copy another feature reads).
     */
    private static final Set<String> MEMBERS_OF_INTERNAL_TYPES = Set.of(
            "broker.BrokerConnections.Visitor",
            "broker.BrokerView.Candidate",
            "consume.ConsumerDestination.Kind",
            "message.MessageCopies.Copy",
            "message.MessageCopies.Headers",
            "message.MessageCopies.StoredMessage",
            "park.ParkedMessages.Replay",
            "processed.IdRows.IdRow",
            "processed.ProcessedMessage.Key",
            "processed.ProcessedMessage.State",
            "processed.ProcessedMessages.Duplicate",
            "telemetry.OutboxReadings.Reading");

    private static final Set<String> ENTERPRISE_BEANS = Set.of(
            "jakarta.ejb.Stateless", "jakarta.ejb.Stateful", "jakarta.ejb.Singleton", "jakarta.ejb.MessageDriven");

    private static final Pattern EDGE =
            Pattern.compile("^\\s+(org\\.exactlyonce\\S*)\\s+->\\s+(org\\.exactlyonce\\S*)\\s");

    @Test
    void thePublicTypesNotMarkedInternalAreTheApi() throws IOException {
        Set<String> unmarked = publicTypes().stream()
                .filter(type -> internalMark(type) == null)
                .map(EngineLayoutTest::shortName)
                .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(new TreeSet<>(API), unmarked, "the public types without @Internal, without org.exactlyonce.");
    }

    /** A member type is internal with its enclosing type, never by a mark of its own. */
    @Test
    void theInternalTypesPublicMemberTypesAreTheOnesListed() throws IOException {
        List<Class<?>> members = publicTypes().stream()
                .filter(type -> type.getEnclosingClass() != null)
                .toList();
        Set<String> ofInternalTypes = members.stream()
                .filter(type -> internalMark(type) != null)
                .map(EngineLayoutTest::shortName)
                .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(
                new TreeSet<>(MEMBERS_OF_INTERNAL_TYPES), ofInternalTypes, "public member types of internal types");
        assertEquals(
                List.of(),
                members.stream()
                        .filter(type -> type.isAnnotationPresent(Internal.class))
                        .toList(),
                "member types marked on their own");
    }

    /**
     * The container's reason holds for an enterprise bean or a CDI extension, another feature's for a type
     * another package of the engine uses, and each that holds is named; the console's is checked by the
     * console's build, which sees what it uses.
     */
    @Test
    void everyInternalTypeNamesWhyItIsPublic() throws IOException {
        Map<String, Set<String>> usedBy = classDependencies();
        Map<String, Set<Reason>> named = new TreeMap<>();
        Map<String, Set<Reason>> found = new TreeMap<>();
        for (Class<?> type : publicTypes()) {
            Internal mark = type.getAnnotation(Internal.class);
            if (mark == null || type.getEnclosingClass() != null) {
                continue;
            }
            Set<Reason> reasons = EnumSet.noneOf(Reason.class);
            reasons.addAll(List.of(mark.value()));
            reasons.remove(Reason.CONSOLE);
            named.put(shortName(type), reasons);
            found.put(shortName(type), reasonsFound(type, usedBy.getOrDefault(type.getName(), Set.of())));
            assertTrue(mark.value().length > 0, type + " is marked internal without a reason");
        }
        assertEquals(found, named, "the reasons but the console's, found in the classes and named by @Internal");
    }

    private static Set<Reason> reasonsFound(Class<?> type, Set<String> usedByPackages) {
        Set<Reason> reasons = EnumSet.noneOf(Reason.class);
        boolean bean = Arrays.stream(type.getAnnotations())
                .anyMatch(annotation ->
                        ENTERPRISE_BEANS.contains(annotation.annotationType().getName()));
        if (bean || Extension.class.isAssignableFrom(type)) {
            reasons.add(Reason.CONTAINER);
        }
        if (usedByPackages.stream().anyMatch(user -> !user.equals(type.getPackageName()))) {
            reasons.add(Reason.ANOTHER_FEATURE);
        }
        return reasons;
    }

    @Test
    void noPackageDependsOnItselfThroughOthers() {
        Map<String, Set<String>> uses = packageDependencies();
        assertTrue(uses.size() > 5, "jdeps found the engine's packages: " + uses.keySet());

        List<List<String>> loops = new ArrayList<>();
        uses.keySet().forEach(start -> loopThrough(start, start, uses, new ArrayList<>(), loops));
        assertEquals(List.of(), loops, "package loops");
    }

    /** The public types, a public member type of a public type counting as much as any other. */
    private static List<Class<?>> publicTypes() throws IOException {
        try (Stream<Path> files = Files.walk(CLASSES)) {
            return files.map(file -> CLASSES.relativize(file).toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("package-info"))
                    .<Class<?>>map(name -> load(name.substring(0, name.length() - ".class".length())
                            .replace(java.io.File.separatorChar, '.')))
                    .filter(EngineLayoutTest::isVisibleOutsideItsPackage)
                    .toList();
        }
    }

    private static Class<?> load(String className) {
        try {
            return Class.forName(className, false, EngineLayoutTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className, e);
        }
    }

    /** The type's mark, or its enclosing type's: a member of an internal type is internal. */
    private static Internal internalMark(Class<?> type) {
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (at.isAnnotationPresent(Internal.class)) {
                return at.getAnnotation(Internal.class);
            }
        }
        return null;
    }

    private static String shortName(Class<?> type) {
        return type.getName().substring("org.exactlyonce.".length()).replace('$', '.');
    }

    /** A public top-level type, or a public member type of one, is: a nested type counts as much as any other. */
    private static boolean isVisibleOutsideItsPackage(Class<?> type) {
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (at.isAnonymousClass() || at.isLocalClass() || !Modifier.isPublic(at.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /** Package to the engine's other packages it uses. */
    private static Map<String, Set<String>> packageDependencies() {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (List<String> edge : dependencies("package")) {
            if (!edge.get(0).equals(edge.get(1))) {
                uses.computeIfAbsent(edge.get(0), p -> new TreeSet<>()).add(edge.get(1));
            }
        }
        return uses;
    }

    /** Top-level class to the other packages whose classes use it (jdeps leaves out a package's own). */
    private static Map<String, Set<String>> classDependencies() {
        Map<String, Set<String>> usedBy = new TreeMap<>();
        for (List<String> edge : dependencies("class")) {
            String used = edge.get(1).split("\\$")[0];
            String user = edge.get(0);
            usedBy.computeIfAbsent(used, c -> new TreeSet<>()).add(user.substring(0, user.lastIndexOf('.')));
        }
        return usedBy;
    }

    /** Each use of one of the engine's packages or classes by another, as the JDK's {@code jdeps} reads them. */
    private static List<List<String>> dependencies(String level) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new AssertionError("jdeps is part of the JDK the build runs on; none found"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "-verbose:" + level,
                "-e",
                "org\\.exactlyonce\\..*",
                CLASSES.toString());
        assertEquals(0, status, "jdeps: " + err);
        return out.toString()
                .lines()
                .map(EDGE::matcher)
                .filter(Matcher::find)
                .map(edge -> List.of(edge.group(1), edge.group(2)))
                .toList();
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
