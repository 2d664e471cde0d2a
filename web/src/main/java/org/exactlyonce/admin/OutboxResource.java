package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.exactlyonce.outbox.Outbox;
import org.exactlyonce.outbox.OutboxFigures;

/** The outbox's figures: messages written by committed transactions and not sent yet. */
@Path("/outbox")
@Produces(MediaType.APPLICATION_JSON)
public class OutboxResource {

    @Inject
    Outbox outbox;

    @GET
    @Operation(summary = "Messages waiting in the outbox, the oldest one's age, and those whose last send failed")
    public OutboxStatus status() throws SQLException {
        return OutboxStatus.of(outbox.figures(), Instant.now());
    }

    /**
     * @param backlog messages written by committed transactions and not sent yet
     * @param oldestAgeSeconds how long the oldest of them has waited; {@code null} when none waits
     * @param failing messages whose last send failed: kept with the reason, and sent again
     */
    public record OutboxStatus(long backlog, Long oldestAgeSeconds, long failing) {

        static OutboxStatus of(OutboxFigures figures, Instant now) {
            return new OutboxStatus(
                    figures.backlog(),
                    figures.oldestAge(now).map(Duration::toSeconds).orElse(null),
                    figures.failing());
        }
    }
}
