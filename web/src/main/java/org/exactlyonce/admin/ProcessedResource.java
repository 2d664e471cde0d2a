package org.exactlyonce.admin;

import jakarta.ejb.EJB;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.exactlyonce.processed.ProcessedMessage;
import org.exactlyonce.processed.ProcessedMessages;

/** Looks up whether a consumer has processed a message ID, and where the ID is in its life. */
@Path("/processed/{consumer}/{messageId}")
@Produces(MediaType.APPLICATION_JSON)
public class ProcessedResource {

    @EJB
    ProcessedMessages processedMessages;

    @GET
    public ProcessedId find(@PathParam("consumer") String consumer, @PathParam("messageId") String messageId) {
        return processedMessages
                .find(consumer, messageId)
                .map(ProcessedId::of)
                .orElseThrow(() -> new NotFoundException(consumer + " has no record of message " + messageId));
    }

    /** A processed ID as the table holds it; {@code acknowledgedAt} is null while unconfirmed. */
    public record ProcessedId(
            String consumer,
            String messageId,
            Instant processedAt,
            String jmsMessageId,
            ProcessedMessage.State state,
            Instant acknowledgedAt) {

        static ProcessedId of(ProcessedMessage found) {
            return new ProcessedId(
                    found.consumer(),
                    found.messageId(),
                    found.processedAt(),
                    found.jmsMessageId(),
                    found.state(),
                    found.acknowledgedAt().orElse(null));
        }
    }
}
