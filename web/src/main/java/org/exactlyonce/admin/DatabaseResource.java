package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.durability.DurabilityReport;

/**
 * The database's settings that decide whether a commit survives a crash or a failover, read now: a
 * setting can change, and a standby can be added, while the server runs.
 */
@Path("/database")
@Produces(MediaType.APPLICATION_JSON)
public class DatabaseResource {

    @Inject
    ConsoleFacade engine;

    @GET
    @Path("/durability")
    @Operation(summary = "The database's durability settings, each judged; 503 when the database does not answer")
    public Durability durability() {
        try {
            return Durability.of(engine.durability());
        } catch (SQLException e) {
            throw Refusals.unavailable("the database does not answer: " + e.getMessage());
        }
    }

    /**
     * @param database the database's product name
     * @param known whether the engine knows which settings make a commit durable on it
     * @param settings each setting the engine reads there
     */
    public record Durability(String database, boolean known, List<Setting> settings) {

        static Durability of(DurabilityReport report) {
            return new Durability(
                    report.database(),
                    report.known(),
                    report.settings().stream()
                            .map(setting -> new Setting(
                                    setting.name(),
                                    setting.value(),
                                    setting.durable()
                                            ? Verdict.DURABLE
                                            : report.isAccepted(setting)
                                                    ? Verdict.ACCEPTED_RISK
                                                    : Verdict.LOSES_COMMITS,
                                    setting.why()))
                            .toList());
        }
    }

    /**
     * @param name the database's name for the setting
     * @param value its value now
     * @param verdict whether commits survive with it
     * @param why what the value does to a commit, and the value to use where it loses them
     */
    public record Setting(String name, String value, Verdict verdict, String why) {}

    /** Whether commits survive a crash or a failover with a setting's value. */
    public enum Verdict {
        DURABLE,
        /** Commits can be lost, and {@code exactlyonce.database.accepted-durability-risks} accepts that. */
        ACCEPTED_RISK,
        /** Commits can be lost, and nobody accepted that: the server does not start, readiness is DOWN. */
        LOSES_COMMITS
    }
}
