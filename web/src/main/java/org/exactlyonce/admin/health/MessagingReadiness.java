package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.internal.console.ConsoleFacade;

/**
 * Readiness: the messaging engine accepts a connection through the engine's connection factory. Without
 * it the purge cannot confirm IDs and parked messages cannot be replayed. Its data also lists the
 * consumers whose IDs the last purge could not confirm, and why.
 */
@Readiness
@ApplicationScoped
public class MessagingReadiness implements HealthCheck {

    @Inject
    ConsoleFacade engine;

    private static final String NAME = "exactly-once-messaging";

    @Override
    public HealthCheckResponse call() {
        try {
            try (Connection connection = engine.connectionFactory().createConnection()) {
                connection.createSession().close(); // a session proves the broker took the connection; sends nothing
            }
            return HealthCheckResponse.named(NAME)
                    .up()
                    .withData("connectionFactory", engine.connectionFactoryName())
                    .withData("unconfirmable", unconfirmable())
                    .build();
        } catch (JMSException | JMSRuntimeException e) {
            return HealthCheckResponse.named(NAME)
                    .down()
                    .withData("connectionFactory", engine.connectionFactoryName())
                    .withData("problem", String.valueOf(e.getMessage()))
                    .build();
        }
    }

    /**
     * The consumers some of whose IDs the last purge could not confirm, with the reasons: the server
     * stays ready (it processes exactly once), but their processed-ID tables grow until an operator acts.
     */
    private String unconfirmable() {
        return engine.lastPurge()
                .map(run -> run.unconfirmable().isEmpty()
                        ? "none"
                        : run.unconfirmable().toString())
                .orElse("no purge has run yet");
    }
}
