package org.exactlyonce.internal.durability;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses a database whose settings can take a commit back, unless an operator accepted that risk by the
 * setting's name in {@code exactlyonce.database.accepted-durability-risks}. Asked before the first
 * delivery ({@code IdTableCheck}), and again by readiness and the console, since a setting can change
 * and a standby can be added while the server runs.
 */
@ApplicationScoped
public class DurabilityGuard {

    private static final Logger LOG = Logger.getLogger(DurabilityGuard.class.getName());

    static final String ACCEPTED_RISKS = "exactlyonce.database.accepted-durability-risks";

    @Inject
    @ConfigProperty(name = ACCEPTED_RISKS)
    Optional<List<String>> acceptedRisks;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource database;

    /** What is wrong with the settings; empty when nothing. */
    public List<String> problems() {
        List<String> known = CommitDurability.allNames();
        return accepted().stream()
                .filter(name -> !known.contains(name))
                .map(name -> ACCEPTED_RISKS + " names '" + name + "', which is none of " + known)
                .toList();
    }

    /** The database's settings as they are now. */
    public DurabilityReport read() throws SQLException {
        try (Connection connection = database.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            Optional<CommitDurability> reader = CommitDurability.of(connection);
            List<DurabilitySetting> settings = reader.isPresent() ? reader.get().read(connection) : List.of();
            return new DurabilityReport(product, settings, accepted());
        }
    }

    /**
     * Returns when every setting keeps commits, or its risk is accepted, which it logs.
     *
     * @throws NotDurable when a setting can take a commit back and nobody accepted it
     * @throws SQLException when the database cannot be asked
     */
    public void requireDurable() throws SQLException {
        DurabilityReport report = read();
        if (!report.known()) {
            LOG.warning(() -> "exactly-once does not know which settings make a commit durable on "
                    + report.database() + ": make sure that a crash or a failover cannot take a commit back,"
                    + " or a message's effect can be lost after its acknowledgement");
            return;
        }
        report.acceptedRisks()
                .forEach(setting -> LOG.warning(() -> "exactly-once runs with a risk accepted in " + ACCEPTED_RISKS
                        + ": " + describe(report, setting)));
        List<DurabilitySetting> refused = report.refused();
        if (!refused.isEmpty()) {
            throw new NotDurable("exactly-once cannot start: "
                    + refused.stream().map(setting -> describe(report, setting)).collect(Collectors.joining("; "))
                    + ". A commit the database takes back loses the effect of an acknowledged message, or"
                    + " books it twice. Fix the setting, or accept the risk with " + ACCEPTED_RISKS + "="
                    + refused.stream().map(DurabilitySetting::name).collect(Collectors.joining(",")));
        }
    }

    private static String describe(DurabilityReport report, DurabilitySetting setting) {
        return report.database() + "'s " + setting.name() + " is '" + setting.value() + "': " + setting.why();
    }

    private Set<String> accepted() {
        return acceptedRisks
                .map(names -> names.stream()
                        .map(String::trim)
                        .filter(name -> !name.isEmpty())
                        .collect(Collectors.toCollection(TreeSet::new)))
                .orElseGet(TreeSet::new);
    }

    /** The database can take a commit back, and nobody accepted that. */
    public static final class NotDurable extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        NotDurable(String why) {
            super(why);
        }
    }
}
