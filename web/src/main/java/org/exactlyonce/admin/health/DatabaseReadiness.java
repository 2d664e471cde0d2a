package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.internal.console.ConsoleFacade;

/**
 * Readiness: the consumers do not find the database down. While they do, they hold or hand back their
 * deliveries (see {@link DatabaseOutage}) and the server should get no new work.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    ConsoleFacade engine;

    private static final String NAME = "exactly-once-database";

    @Override
    public HealthCheckResponse call() {
        return engine.databaseDownSince()
                .map(since -> HealthCheckResponse.named(NAME)
                        .down()
                        .withData("downSince", since.toString())
                        .build())
                .orElseGet(() -> HealthCheckResponse.named(NAME).up().build());
    }
}
