package org.exactlyonce.admin;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Who is signed in, so that the page shows admin actions to admins only (the API enforces them anyway). */
@Path("/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    static final String ADMIN = "exactly-once-admin";

    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "The signed-in user and whether it may change things")
    public Me me() {
        return new Me(security.getUserPrincipal().getName(), security.isUserInRole(ADMIN));
    }

    /**
     * @param user the user's name
     * @param admin whether the user has role {@value MeResource#ADMIN}
     */
    public record Me(String user, boolean admin) {}
}
