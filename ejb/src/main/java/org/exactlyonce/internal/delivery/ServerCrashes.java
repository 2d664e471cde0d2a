package org.exactlyonce.internal.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * This server's {@link CrashGuard}, shared by the application's consumers, over a {@link CrashJournal}
 * opened at the application's start in the directory {@code exactlyonce.crash-guard.directory}: by
 * default WildFly's data directory, or the server's own directory where Open Liberty runs it. One file
 * per application, so that two applications of one server never share a slot.
 */
@ApplicationScoped
public class ServerCrashes {

    private static final Logger LOG = Logger.getLogger(ServerCrashes.class.getName());

    @Inject
    DeliverySettings settings;

    private CrashGuard guard;

    /**
     * The guard, its journal opened on the first call; off where {@code crashes-before-parking} is 0.
     *
     * @throws UncheckedIOException when the journal cannot be opened, which the start's {@link
     *     SettingsCheck} reports first
     */
    public synchronized CrashGuard guard() {
        if (guard == null) {
            try {
                guard = opened();
            } catch (IOException e) {
                throw new UncheckedIOException("the crash journal cannot be opened in " + directory(), e);
            }
        }
        return guard;
    }

    /** What keeps the guard from running: its journal cannot be opened. Opens it. */
    public List<String> problems() {
        try {
            guard();
            return List.of();
        } catch (RuntimeException e) {
            return List.of("the crash journal cannot be opened in exactlyonce.crash-guard.directory " + directory()
                    + ": " + e);
        }
    }

    private CrashGuard opened() throws IOException {
        if (settings.crashesBeforeParking() == 0) {
            LOG.info("exactly-once: the crash guard is off (exactlyonce.crash-guard.crashes-before-parking=0): a"
                    + " message whose processing crashes the server is delivered again after every restart");
            return CrashGuard.OFF;
        }
        CrashJournal journal = CrashJournal.open(
                directory().resolve("exactly-once-" + applicationName() + ".crash-journal"),
                settings.crashJournalSlots());
        Map<String, Set<String>> interrupted = journal.interrupted();
        if (!interrupted.isEmpty()) {
            LOG.warning(() -> "exactly-once: this server went down while it processed "
                    + interrupted.values().stream().mapToInt(Set::size).sum() + " messages ("
                    + interrupted.entrySet().stream()
                            .map(consumer -> consumer.getKey() + ": " + String.join(", ", consumer.getValue()))
                            .collect(Collectors.joining("; "))
                    + "). Each counts one crash; a message whose processing crashes the server "
                    + settings.crashesBeforeParking() + " times is parked as CRASHES_THE_SERVER");
        }
        return CrashGuard.on(journal, settings.crashesBeforeParking());
    }

    private Path directory() {
        return settings.crashJournalDirectory()
                .or(() -> Optional.ofNullable(System.getProperty("jboss.server.data.dir")))
                .map(Path::of)
                .orElse(Path.of("").toAbsolutePath()); // Open Liberty runs a server in its own directory
    }

    private static String applicationName() {
        try {
            String name = InitialContext.doLookup("java:app/AppName");
            return name.replaceAll("[^A-Za-z0-9._-]", "_");
        } catch (NamingException e) {
            return "application";
        }
    }
}
