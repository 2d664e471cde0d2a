package org.exactlyonce.internal.outbox;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.Dependent;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.exactlyonce.internal.telemetry.OutboxReadings;

/**
 * The relay's figures for OpenTelemetry. Dependent, so it is made with the exporter on a container thread,
 * and it asks the relay, an enterprise bean, not the outbox: the exporter collects on its own thread,
 * where a bean that looks resources up in {@code java:comp} when it is made cannot be made.
 */
@Dependent
class RelayReadings implements OutboxReadings {

    private static final Logger LOG = Logger.getLogger(RelayReadings.class.getName());

    @EJB
    OutboxRelay relay;

    @Override
    public Optional<Reading> now() {
        try {
            OutboxFigures figures = relay.figures();
            return Optional.of(new Reading(
                    figures.backlog(),
                    figures.oldestAge(Instant.now()).map(Duration::toSeconds).orElse(0L),
                    figures.failing(),
                    figures.sent(),
                    figures.sendFailures()));
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "the outbox's figures could not be read for OpenTelemetry", e);
            return Optional.empty();
        }
    }
}
