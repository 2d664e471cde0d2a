package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.durability.DurabilityReport;

/**
 * Readiness: the database keeps what it commits. A setting changed, or an asynchronous standby added,
 * after the server started turns it DOWN, naming the setting; a risk an operator accepted is reported
 * and keeps it UP.
 */
@Readiness
@ApplicationScoped
public class DurabilityReadiness implements HealthCheck {

    private static final String NAME = "exactly-once-durability";

    @Inject
    ConsoleFacade engine;

    @Override
    public HealthCheckResponse call() {
        DurabilityReport report;
        try {
            report = engine.durability();
        } catch (SQLException e) {
            return HealthCheckResponse.named(NAME)
                    .down()
                    .withData("problem", "the database does not answer: " + e.getMessage())
                    .build();
        }
        HealthCheckResponseBuilder answer = HealthCheckResponse.named(NAME)
                .status(report.refused().isEmpty())
                .withData("database", report.database());
        report.settings()
                .forEach(setting -> answer.withData(
                        setting.name(),
                        setting.value()
                                + (setting.durable()
                                        ? ""
                                        : report.isAccepted(setting) ? " (accepted risk)" : ": " + setting.why())));
        return answer.build();
    }
}
