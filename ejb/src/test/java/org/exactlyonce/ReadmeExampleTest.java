package org.exactlyonce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The consumer users copy is the same in the README and in the class's javadoc. */
class ReadmeExampleTest {

    @Test
    void theReadmesConsumerIsTheJavadocs() throws IOException {
        assertEquals(readmeExample(), javadocExample());
    }

    /** The first Java block after "## Extend the consumer". */
    private static String readmeExample() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int section = lines.indexOf("## Extend the consumer");
        int start = lines.subList(section, lines.size()).indexOf("```java") + section + 1;
        int end = lines.subList(start, lines.size()).indexOf("```") + start;
        return String.join("\n", lines.subList(start, end));
    }

    /** The {@code <pre>{@code …}</pre>} block of the class javadoc, without the leading asterisks. */
    private static String javadocExample() throws IOException {
        List<String> lines =
                Files.readAllLines(Path.of("src/main/java/org/exactlyonce/AbstractExactlyOnceConsumer.java"));
        int start = lines.indexOf(" * <pre>{@code") + 1;
        int end = lines.indexOf(" * }</pre>");
        return lines.subList(start, end).stream()
                .map(line -> line.equals(" *") ? "" : line.substring(" * ".length()))
                .collect(Collectors.joining("\n"));
    }
}
