package org.exactlyonce.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The test phase's server log ({@link Phase#log}): a WildFly's server.log, a Liberty's messages.log.
 */
final class ServerLog {

    private final Path log = Phase.log();

    /** How many lines mention the text, in any case. */
    long linesMentioning(String text) {
        return linesMentioningAll(text);
    }

    /** How many lines mention every one of the texts, in any case. */
    long linesMentioningAll(String... texts) {
        List<String> wanted =
                Arrays.stream(texts).map(text -> text.toLowerCase(Locale.ROOT)).toList();
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) { // any byte: logs hold what messages carried
            return lines.map(line -> line.toLowerCase(Locale.ROOT))
                    .filter(line -> wanted.stream().allMatch(line::contains))
                    .count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server log " + log, e);
        }
    }

    /**
     * The warnings and errors a Liberty logged, by their message codes: {@code W CWNEN0047W: ...} and
     * {@code E ...E:} lines.
     */
    List<String> libertyWarningsAndErrors() {
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> LIBERTY_WARNING_OR_ERROR.matcher(line).find())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the server log " + log, e);
        }
    }

    private static final Pattern LIBERTY_WARNING_OR_ERROR = Pattern.compile(" [WE] [A-Z]{4,5}\\d{4,5}[IWE]?:");
}
