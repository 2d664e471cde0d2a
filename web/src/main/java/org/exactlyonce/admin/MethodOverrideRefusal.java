package org.exactlyonce.admin;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import java.util.logging.Logger;

/**
 * Refuses every request that asks, by a header, to be taken as another method. The server checks a
 * request's role by its real method (a viewer may GET), so a framework that honoured such a header
 * would let a viewer's GET delete a parked message. Liberty's RESTEasy ignores them today (a viewer's GET
 * with {@code X-HTTP-Method-Override: DELETE} read the message); this refuses them before any resource
 * is matched, whatever the implementation, with an answer that says why.
 */
@Provider
@PreMatching
public class MethodOverrideRefusal implements ContainerRequestFilter {

    private static final Logger LOG = Logger.getLogger(MethodOverrideRefusal.class.getName());

    /** The headers frameworks have used to override a request's method. */
    static final List<String> HEADERS = List.of("X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override");

    @Override
    public void filter(ContainerRequestContext request) {
        for (String header : HEADERS) {
            if (request.getHeaderString(header) != null) {
                LOG.info(() -> "Refused " + request.getMethod() + " "
                        + request.getUriInfo().getPath() + " with the header " + header
                        + ": the console takes each request by its own method");
                request.abortWith(Response.status(Response.Status.BAD_REQUEST)
                        .type(MediaType.TEXT_PLAIN_TYPE)
                        .entity(header + " is not accepted: send the request with the method itself")
                        .build());
                return;
            }
        }
    }
}
