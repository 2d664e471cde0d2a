package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.outbox.OutboxFigures;
import org.exactlyonce.internal.outbox.UnsentMessage;

/**
 * The outbox: messages written by committed transactions and not sent yet, those whose send failed
 * with the reason, and discarding one of those. A discard is written to the audit log.
 */
@Path("/outbox")
@Produces(MediaType.APPLICATION_JSON)
public class OutboxResource {

    @Inject
    ConsoleFacade engine;

    private static final Logger AUDIT = Logger.getLogger("org.exactlyonce.audit");

    /** Failing messages listed at most. */
    private static final int LISTED = 50;

    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "Messages waiting in the outbox, the oldest one's age, what went, and those whose send failed")
    public OutboxStatus status() throws SQLException {
        return OutboxStatus.of(engine.outbox(), engine.failingOutgoing(LISTED), Instant.now());
    }

    @DELETE
    @Path("/{messageId}")
    @Operation(summary = "Discards a waiting outgoing message without sending it; needs an admin")
    @APIResponse(responseCode = "204", description = "discarded")
    @APIResponse(responseCode = "404", description = "no message with that ID waits: sent, or never written")
    public Response discard(@PathParam("messageId") String messageId) throws SQLException {
        if (!engine.discardOutgoing(messageId)) {
            throw Refusals.notFound("no outgoing message " + messageId + " waits in the outbox");
        }
        String user = security.getUserPrincipal().getName();
        AUDIT.info(() -> "audit: user=" + user + " discarded outgoing message " + messageId + " at " + Instant.now());
        return Response.noContent().build();
    }

    /**
     * @param backlog messages written by committed transactions and not sent yet
     * @param backlogByDestination the same, by destination: {@code queue <name>}, {@code topic <name>}
     * @param oldestAgeSeconds how long the oldest of them has waited; {@code null} when none waits
     * @param failing messages whose last send failed: kept with the reason, and sent again
     * @param sent messages this server's relay has sent since it started
     * @param sendFailures sends that failed on this server since it started
     * @param failingMessages the first 50 failing messages, oldest first
     */
    public record OutboxStatus(
            long backlog,
            Map<String, Long> backlogByDestination,
            Long oldestAgeSeconds,
            long failing,
            long sent,
            long sendFailures,
            List<UnsentMessage> failingMessages) {

        static OutboxStatus of(OutboxFigures figures, List<UnsentMessage> failing, Instant now) {
            return new OutboxStatus(
                    figures.backlog(),
                    figures.backlogByDestination(),
                    figures.oldestAge(now).map(Duration::toSeconds).orElse(null),
                    figures.failing(),
                    figures.sent(),
                    figures.sendFailures(),
                    failing);
        }
    }
}
