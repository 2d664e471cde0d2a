package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.internal.console.ConsoleFacade;

/**
 * Readiness: every batched receiver the application started runs. One that a failure stopped starts
 * again after a pause; until it does, its messages wait on the broker and the server should get no
 * new work.
 */
@Readiness
@ApplicationScoped
public class ReceiversReadiness implements HealthCheck {

    @Inject
    ConsoleFacade engine;

    private static final String NAME = "exactly-once-receivers";

    @Override
    public HealthCheckResponse call() {
        List<String> notRunning = engine.receiversNotRunning();
        return notRunning.isEmpty()
                ? HealthCheckResponse.named(NAME).up().build()
                : HealthCheckResponse.named(NAME)
                        .down()
                        .withData("notRunning", String.join(", ", notRunning))
                        .build();
    }
}
