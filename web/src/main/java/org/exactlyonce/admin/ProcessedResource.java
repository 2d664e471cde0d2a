package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.processed.ProcessedMessage;

/**
 * Looks up whether a consumer has processed a message ID, and where the ID is in its life. Both are
 * query parameters: consumer names hold slashes, and an ID may hold anything, trailing blanks included.
 */
@Path("/processed")
@Produces(MediaType.APPLICATION_JSON)
public class ProcessedResource {

    @Inject
    ConsoleFacade engine;

    @GET
    @Operation(
            summary = "Whether a consumer processed a message ID, when, and whether its acknowledgement is confirmed")
    @APIResponse(responseCode = "200", description = "processed")
    @APIResponse(
            responseCode = "400",
            description = "consumer or messageId missing, or one no consumer or message can have (a NUL, too long)")
    @APIResponse(responseCode = "404", description = "no record: never processed, or purged after the dedup window")
    public ProcessedId find(@QueryParam("consumer") String consumer, @QueryParam("messageId") String messageId) {
        if (consumer == null || messageId == null) {
            throw Refusals.badRequest("name the consumer and the messageId, as query parameters");
        }
        Refusals.badRequestIf(
                engine.problemWithConsumerName(consumer).or(() -> engine.problemWithMessageId(messageId)));
        return engine.processed(consumer, messageId)
                .map(ProcessedId::of)
                .orElseThrow(() -> Refusals.notFound(consumer + " has no record of message " + messageId));
    }

    /**
     * A processed ID as the table holds it; {@code acknowledgedAt} is null while unconfirmed, {@code
     * broker} (the broker that delivered it) when it was not recorded.
     */
    public record ProcessedId(
            String consumer,
            String messageId,
            Instant processedAt,
            String jmsMessageId,
            String broker,
            ProcessedMessage.State state,
            Instant acknowledgedAt) {

        static ProcessedId of(ProcessedMessage found) {
            return new ProcessedId(
                    found.consumer(),
                    found.messageId(),
                    found.processedAt(),
                    found.jmsMessageId(),
                    found.broker().orElse(null),
                    found.state(),
                    found.acknowledgedAt().orElse(null));
        }
    }
}
