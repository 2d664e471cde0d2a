package org.exactlyonce.admin;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.exactlyonce.internal.console.ConsoleFacade;
import org.exactlyonce.internal.purge.PurgeReport;

/** Runs a purge of processed IDs now, rather than at the next timer run. */
@Path("/purge")
@Produces(MediaType.APPLICATION_JSON)
public class PurgeResource {

    @Inject
    ConsoleFacade engine;

    /**
     * The run's report, as an entity the OpenAPI document does not describe by its class: the report's
     * class lives in the engine's module, outside the index the server scans for this one, and naming
     * it as the return type made every start warn (SROAP04005).
     */
    @POST
    @Operation(summary = "Runs a purge now and returns what it did; needs an admin")
    @APIResponse(
            responseCode = "200",
            description = "What the run did: startedAt, took, longestLockHold, confirmed, confirmedByAge,"
                    + " keptPending, deleted, failedBatches, unconfirmable (reasons by consumer) and idTables"
                    + " (each consumer's unconfirmed and acknowledged IDs)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT)))
    public Response purgeNow() {
        PurgeReport report = engine.purgeNow();
        return Response.ok(report).build();
    }
}
