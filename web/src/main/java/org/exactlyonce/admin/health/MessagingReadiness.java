package org.exactlyonce.admin.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.exactlyonce.broker.BrokerConnections;

/**
 * Readiness: the messaging engine accepts a connection through the engine's connection factory. Without
 * it the purge cannot confirm IDs and parked messages cannot be replayed.
 */
@Readiness
@ApplicationScoped
public class MessagingReadiness implements HealthCheck {

    private static final String NAME = "exactly-once-messaging";

    @Inject
    BrokerConnections connections;

    @Override
    public HealthCheckResponse call() {
        try {
            try (JMSContext context = connections.connectionFactory().createContext()) {
                context.createQueue("exactly-once-readiness"); // a local object: proves the session, sends nothing
            }
            return HealthCheckResponse.named(NAME)
                    .up()
                    .withData("connectionFactory", connections.connectionFactoryName())
                    .build();
        } catch (JMSException | JMSRuntimeException e) {
            return HealthCheckResponse.named(NAME)
                    .down()
                    .withData("connectionFactory", connections.connectionFactoryName())
                    .withData("problem", String.valueOf(e.getMessage()))
                    .build();
        }
    }
}
