package org.exactlyonce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API is where it lives: the public types outside {@code org.exactlyonce.internal}, and none of
 * them hands an application an internal type, in what it extends, declares, takes, returns or throws.
 */
class EngineLayoutTest {

    private static final Path CLASSES = Path.of("target", "classes");

    private static final String INTERNAL = "org.exactlyonce.internal.";

    /** What users extend, throw, call and observe, with their public member types. */
    private static final Set<String> API = Set.of(
            "AbstractExactlyOnceConsumer",
            "InvalidMessageException",
            "ParkReason",
            "ProtocolStep",
            "ProtocolStep.Step",
            "batch.BatchedReceiver",
            "batch.BatchedReceiver.Acknowledgement",
            "batch.BatchedReceiver.Builder",
            "batch.BatchedReceivers",
            "batch.BatchProcessor",
            "outbox.Outbox",
            "outbox.OutgoingMessage");

    @Test
    void thePublicTypesOutsideInternalAreTheApi() throws IOException {
        Set<String> outside = apiTypes().stream()
                .map(type ->
                        type.getName().substring("org.exactlyonce.".length()).replace('$', '.'))
                .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(new TreeSet<>(API), outside, "public types outside org.exactlyonce.internal");
    }

    @Test
    void noApiTypeExposesAnInternalOne() throws IOException {
        List<String> exposed = new ArrayList<>();
        for (Class<?> type : apiTypes()) {
            List<Type> seen = new ArrayList<>();
            seen.add(type.getGenericSuperclass());
            seen.addAll(List.of(type.getGenericInterfaces()));
            for (Field field : type.getDeclaredFields()) {
                if (visible(field)) {
                    seen.add(field.getGenericType());
                }
            }
            Stream.concat(Arrays.stream(type.getDeclaredMethods()), Arrays.stream(type.getDeclaredConstructors()))
                    .filter(EngineLayoutTest::visible)
                    .forEach(executable -> {
                        seen.addAll(List.of(executable.getGenericParameterTypes()));
                        seen.addAll(List.of(executable.getGenericExceptionTypes()));
                        if (executable instanceof java.lang.reflect.Method method) {
                            seen.add(method.getGenericReturnType());
                        }
                    });
            seen.stream()
                    .flatMap(EngineLayoutTest::classesIn)
                    .filter(used -> used.getName().startsWith(INTERNAL))
                    .forEach(used -> exposed.add(type.getName() + " -> " + used.getName()));
        }
        assertEquals(List.of(), exposed, "API types that hand out internal ones");
    }

    /** Public and protected members: what an application that extends or calls the type can reach. */
    private static boolean visible(Member member) {
        return !member.isSynthetic()
                && (Modifier.isPublic(member.getModifiers()) || Modifier.isProtected(member.getModifiers()));
    }

    private static Stream<Class<?>> classesIn(Type type) {
        if (type instanceof Class<?> plain) {
            return plain.isArray() ? classesIn(plain.getComponentType()) : Stream.of(plain);
        }
        if (type instanceof ParameterizedType parameterized) {
            return Stream.concat(
                    classesIn(parameterized.getRawType()),
                    Arrays.stream(parameterized.getActualTypeArguments()).flatMap(EngineLayoutTest::classesIn));
        }
        if (type instanceof WildcardType wildcard) {
            return Stream.concat(Arrays.stream(wildcard.getUpperBounds()), Arrays.stream(wildcard.getLowerBounds()))
                    .flatMap(EngineLayoutTest::classesIn);
        }
        return Stream.empty(); // a type variable: its bounds are the declaring type's
    }

    /** The public types outside the internal packages, public member types included. */
    private static List<Class<?>> apiTypes() throws IOException {
        try (Stream<Path> files = Files.walk(CLASSES)) {
            return files.map(file -> CLASSES.relativize(file).toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("package-info"))
                    .<Class<?>>map(name -> load(name.substring(0, name.length() - ".class".length())
                            .replace(java.io.File.separatorChar, '.')))
                    .filter(type -> !type.getName().startsWith(INTERNAL))
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

    private static boolean isVisibleOutsideItsPackage(Class<?> type) {
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (at.isAnonymousClass() || at.isLocalClass() || !Modifier.isPublic(at.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
