package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.exactlyonce.processed.ProcessedMessages;

/** Looks up whether a consumer has processed a message ID. */
@Path("/processed/{consumer}/{messageId}")
@Produces(MediaType.APPLICATION_JSON)
public class ProcessedResource {

    @Inject
    ProcessedMessages processedMessages;

    @GET
    public ProcessedId find(@PathParam("consumer") String consumer, @PathParam("messageId") String messageId) {
        return processedMessages
                .find(consumer, messageId)
                .map(found ->
                        new ProcessedId(found.consumer(), found.messageId(), found.processedAt(), found.jmsMessageId()))
                .orElseThrow(() -> new NotFoundException(consumer + " has no record of message " + messageId));
    }

    /** A processed ID as the table holds it. */
    public record ProcessedId(String consumer, String messageId, Instant processedAt, String jmsMessageId) {}
}
