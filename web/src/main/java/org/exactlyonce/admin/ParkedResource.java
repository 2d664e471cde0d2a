package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.logging.Logger;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.park.ParkedMessage;

/** Parked messages: list, show, replay to their queue, discard. Every change is written to the audit log. */
@Path("/parked")
@Produces(MediaType.APPLICATION_JSON)
public class ParkedResource {

    @Inject
    ConsoleFacade engine;

    private static final int MAX_PAGE_SIZE = 500;

    private static final Logger AUDIT = Logger.getLogger("org.exactlyonce.audit");

    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "A page of parked messages, newest first, filtered by consumer and reason; no bodies")
    @APIResponse(responseCode = "200", description = "the page")
    @APIResponse(
            responseCode = "400",
            description = "page or size not a number in range, a reason that does not exist, or a consumer name"
                    + " no consumer can have")
    public List<ParkedSummary> list(
            @QueryParam("consumer") String consumer,
            @QueryParam("reason") String reason,
            @QueryParam("page") @DefaultValue("0") String pageAsked,
            @QueryParam("size") @DefaultValue("50") String sizeAsked) {
        int size = number("size", sizeAsked, 1, MAX_PAGE_SIZE);
        int page = number("page", pageAsked, 0, Integer.MAX_VALUE / MAX_PAGE_SIZE); // the offset is an int
        if (consumer != null) {
            Refusals.badRequestIf(engine.problemWithConsumerName(consumer));
        }
        return engine.parked(consumer, reasonOf(reason), page, size).stream()
                .map(ParkedSummary::of)
                .toList();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One parked message, whole: its body, headers and properties")
    @APIResponse(responseCode = "200", description = "the parked message")
    @APIResponse(responseCode = "404", description = "no parked message with that ID")
    public Parked show(@PathParam("id") String idAsked) {
        long id = idOf(idAsked);
        return engine.parked(id).map(Parked::of).orElseThrow(() -> notFound(id));
    }

    /** Sends the message back to its queue, with its ID and properties, and removes it from here. */
    @POST
    @Path("/{id}/replay")
    @Operation(summary = "Sends a parked message back to its queue, same ID and properties; needs an admin")
    @APIResponse(responseCode = "204", description = "replayed and removed from the parked messages")
    @APIResponse(responseCode = "404", description = "no parked message with that ID")
    @APIResponse(
            responseCode = "409",
            description = "refused: its consumer has processed the message's ID since, or it came from a topic")
    public Response replay(@PathParam("id") String idAsked) throws Exception {
        long id = idOf(idAsked);
        switch (engine.replayParked(id)) {
            case NO_SUCH_MESSAGE -> throw notFound(id);
            case ID_PROCESSED ->
                throw Refusals.conflict("parked message " + id + " was not replayed: its consumer has"
                        + " processed its ID since it was parked, so a replay would have a second effect; discard it");
            case NOT_FROM_A_QUEUE ->
                throw Refusals.conflict("parked message " + id + " was not replayed: it did not come from a"
                        + " queue (on a topic, a replay would reach every subscriber again); discard it once handled");
            case REPLAYED -> audit("replayed", id);
        }
        return Response.noContent().build();
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Discards a parked message; needs an admin")
    @APIResponse(responseCode = "204", description = "discarded")
    @APIResponse(responseCode = "404", description = "no parked message with that ID")
    public Response discard(@PathParam("id") String idAsked) {
        long id = idOf(idAsked);
        if (!engine.discardParked(id)) {
            throw notFound(id);
        }
        audit("discarded", id);
        return Response.noContent().build();
    }

    private void audit(String action, long id) {
        String user = security.getUserPrincipal().getName();
        AUDIT.info(() -> "audit: user=" + user + " " + action + " parked message " + id + " at " + Instant.now());
    }

    /** A query parameter's whole number, from min to max. */
    private static int number(String name, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw Refusals.badRequest(name + " must be a whole number from " + min + " to " + max);
    }

    private static ParkReason reasonOf(String reason) {
        try {
            return reason == null ? null : ParkReason.valueOf(reason);
        } catch (IllegalArgumentException e) {
            throw Refusals.badRequest("no such reason; it is one of " + List.of(ParkReason.values()));
        }
    }

    private static NotFoundException notFound(long id) {
        return Refusals.notFound("no parked message " + id);
    }

    /** A parked message's ID as the path gives it: a path that holds none names no parked message. */
    private static long idOf(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw Refusals.notFound("no parked message has that ID: they are whole numbers");
        }
    }

    /** A parked message as lists show it: the start of its body, or its size, in {@code bodyPreview}. */
    public record ParkedSummary(
            long id,
            String consumer,
            String messageId,
            String jmsMessageId,
            String queue,
            ParkReason reason,
            String detail,
            BodyType bodyType,
            String bodyPreview,
            int attempts,
            Instant sentAt,
            Instant parkedAt) {

        static ParkedSummary of(ParkedMessage parked) {
            return new ParkedSummary(
                    parked.id(),
                    parked.consumer(),
                    parked.messageId(),
                    parked.jmsMessageId(),
                    parked.queueName(),
                    parked.reason(),
                    parked.detail(),
                    parked.bodyType(),
                    parked.bodyPreview(),
                    parked.attempts(),
                    parked.sentAt(),
                    parked.parkedAt());
        }
    }

    /**
     * A parked message, whole. {@code body} is the text of a text message, the JSON of a map or stream
     * body (each value with its Java type), and Base64 for the bytes of a bytes message or of an
     * object's Java serialization; {@code null} for a plain message.
     */
    public record Parked(
            long id,
            String consumer,
            String messageId,
            String jmsMessageId,
            String queue,
            ParkReason reason,
            String detail,
            BodyType bodyType,
            String body,
            JsonObject headers,
            JsonObject properties,
            int attempts,
            Instant sentAt,
            Instant parkedAt) {

        static Parked of(ParkedMessage parked) {
            return new Parked(
                    parked.id(),
                    parked.consumer(),
                    parked.messageId(),
                    parked.jmsMessageId(),
                    parked.queueName(),
                    parked.reason(),
                    parked.detail(),
                    parked.bodyType(),
                    bodyOf(parked.bodyType(), parked.body()),
                    json(parked.headers()),
                    json(parked.properties()),
                    parked.attempts(),
                    parked.sentAt(),
                    parked.parkedAt());
        }

        private static String bodyOf(BodyType type, byte[] body) {
            if (body == null) {
                return null;
            }
            return switch (type) {
                case TEXT, MAP, STREAM -> new String(body, StandardCharsets.UTF_8);
                default -> Base64.getEncoder().encodeToString(body);
            };
        }

        private static JsonObject json(String json) {
            try (var reader = Json.createReader(new StringReader(json))) {
                return reader.readObject();
            }
        }
    }
}
