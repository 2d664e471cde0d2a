package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.purge.PurgeReport;

/**
 * Liveness: the purge keeps working. A purge stuck for several intervals (a hung lock, an engine that
 * never answers) leaves the processed-ID table growing without end; a restart is the remedy. A long run
 * that keeps finishing steps (a first purge over millions of IDs) is alive: restarting the server
 * would only start it again.
 */
@Liveness
@ApplicationScoped
public class PurgeLiveness implements HealthCheck {

    @Inject
    ConsoleFacade engine;

    private static final String NAME = "exactly-once-purge";

    /** Intervals without a finished run or a step of one after which the purge counts as stuck. */
    private static final int MISSED_RUNS = 5;

    @Override
    public HealthCheckResponse call() {
        Duration allowed = engine.purgeInterval().multipliedBy(MISSED_RUNS);
        Instant lastActivity = engine.purgeLastActivity();
        boolean alive = lastActivity.isAfter(Instant.now().minus(allowed));
        return HealthCheckResponse.named(NAME)
                .status(alive)
                .withData(
                        "lastActivity",
                        lastActivity.truncatedTo(ChronoUnit.SECONDS).toString())
                .withData("interval", engine.purgeInterval().toString())
                .withData(
                        "lastRun", engine.lastPurge().map(PurgeReport::summary).orElse("none yet"))
                .build();
    }
}
