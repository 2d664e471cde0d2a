package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.purge.PurgeSettings;

/**
 * Readiness: the messaging engine accepts a connection through the engine's connection factory. Without
 * it the purge cannot confirm IDs and parked messages cannot be replayed.
 */
@Readiness
@ApplicationScoped
public class MessagingReadiness implements HealthCheck {

    private static final String NAME = "exactly-once-messaging";

    @Inject
    PurgeSettings settings;

    @Override
    public HealthCheckResponse call() {
        try {
            ConnectionFactory factory = (ConnectionFactory) new InitialContext().lookup(settings.connectionFactory());
            try (JMSContext context = factory.createContext()) {
                context.createQueue("exactly-once-readiness"); // a local object: proves the session, sends nothing
            }
            return HealthCheckResponse.named(NAME)
                    .up()
                    .withData("connectionFactory", settings.connectionFactory())
                    .build();
        } catch (NamingException | JMSRuntimeException e) {
            return HealthCheckResponse.named(NAME)
                    .down()
                    .withData("connectionFactory", settings.connectionFactory())
                    .withData("problem", String.valueOf(e.getMessage()))
                    .build();
        }
    }
}
