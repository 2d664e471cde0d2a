package org.exactlyonce.admin;

import jakarta.ejb.EJB;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.exactlyonce.purge.Purge;
import org.exactlyonce.purge.PurgeReport;

/** Runs a purge of processed IDs now, rather than at the next timer run. */
@Path("/purge")
@Produces(MediaType.APPLICATION_JSON)
public class PurgeResource {

    @EJB
    Purge purge;

    @POST
    @Operation(summary = "Runs a purge now and returns what it did; needs an admin")
    public PurgeReport purgeNow() {
        return purge.purgeNow();
    }
}
