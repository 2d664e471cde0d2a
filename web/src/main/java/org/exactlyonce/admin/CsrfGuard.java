package org.exactlyonce.admin;

import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;

/**
 * Refuses state-changing requests without the {@value #HEADER} header. A cross-site form or image can
 * make the browser send the admin's credentials, but it cannot add a custom header, and a cross-site
 * script that could is stopped by the same-origin policy since the API allows no CORS.
 */
@Provider
public class CsrfGuard implements ContainerRequestFilter {

    /** The header every change must carry; any value will do. */
    public static final String HEADER = "X-Requested-By";

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void filter(ContainerRequestContext request) {
        if (!SAFE_METHODS.contains(request.getMethod()) && request.getHeaderString(HEADER) == null) {
            throw new ForbiddenException("a change needs the " + HEADER + " header (cross-site request protection)");
        }
    }
}
