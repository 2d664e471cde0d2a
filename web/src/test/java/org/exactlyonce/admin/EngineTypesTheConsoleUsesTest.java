package org.exactlyonce.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.exactlyonce.Internal;
import org.junit.jupiter.api.Test;

/**
 * The console's half of the engine's layout check (the engine's {@code EngineLayoutTest}): of the
 * engine's types marked {@link Internal}, the console uses exactly those marked for it, as the JDK's
 * {@code jdeps} reads the compiled classes.
 */
class EngineTypesTheConsoleUsesTest {

    private static final Path CONSOLE = Path.of("target", "classes");
    private static final Pattern USE =
            Pattern.compile("^\\s+org\\.exactlyonce\\.admin\\S*\\s+->\\s+(org\\.exactlyonce\\.(?!admin\\.)\\S+)\\s");

    @Test
    void theConsoleUsesTheInternalTypesMarkedForItAndNoOthers() throws IOException, URISyntaxException {
        Path engine = Path.of(Internal.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());

        Set<String> markedForTheConsole = engineTypes(engine).stream()
                .filter(type -> reasons(type).contains(Internal.Reason.CONSOLE))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> internalOnesUsed = typesTheConsoleUses(engine).stream()
                .filter(type -> !reasons(type).isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(markedForTheConsole, internalOnesUsed, "@Internal(CONSOLE) against the console's uses");
    }

    /** The reasons the type's mark names; none when it is not marked internal. */
    private static List<Internal.Reason> reasons(String typeName) {
        try {
            Internal mark = Class.forName(typeName, false, EngineTypesTheConsoleUsesTest.class.getClassLoader())
                    .getAnnotation(Internal.class);
            return mark == null ? List.of() : List.of(mark.value());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(typeName, e);
        }
    }

    /** The engine's top-level types, from its classes folder or its jar, whichever the build put on the class path. */
    private static Set<String> engineTypes(Path engine) throws IOException {
        if (Files.isDirectory(engine)) {
            return topLevelTypes(engine);
        }
        try (FileSystem jar = FileSystems.newFileSystem(engine)) {
            return topLevelTypes(jar.getPath("/"));
        }
    }

    private static Set<String> topLevelTypes(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(file -> root.relativize(file).toString())
                    .filter(name -> name.startsWith("org/exactlyonce/") && name.endsWith(".class"))
                    .filter(name -> !name.contains("$") && !name.contains("package-info"))
                    .map(name ->
                            name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .collect(Collectors.toSet());
        }
    }

    /** The engine's top-level types the console's classes use. */
    private static Set<String> typesTheConsoleUses(Path engine) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
                .orElseThrow(() -> new AssertionError("jdeps is part of the JDK the build runs on; none found"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "-verbose:class",
                "-cp",
                engine.toString(),
                "-e",
                "org\\.exactlyonce\\..*",
                CONSOLE.toString());
        assertEquals(0, status, "jdeps: " + err);
        return out.toString()
                .lines()
                .map(USE::matcher)
                .filter(Matcher::find)
                .map(use -> use.group(1).split("\\$")[0])
                .collect(Collectors.toSet());
    }
}
