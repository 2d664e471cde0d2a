package org.exactlyonce.admin;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/** The admin console's REST API, under {@code /exactly-once/api}. */
@ApplicationPath("/api")
@OpenAPIDefinition(
        info =
                @Info(
                        title = "Exactly-once admin console API",
                        version = "1",
                        description =
                                "Consumers' figures, processed-ID look-up, parked messages, purge. Reading needs role"
                                        + " exactly-once-viewer or exactly-once-admin; every change needs exactly-once-admin and"
                                        + " the X-Requested-By header."))
@SecurityScheme(securitySchemeName = "basic", type = SecuritySchemeType.HTTP, scheme = "basic")
@SecurityRequirement(name = "basic")
public class AdminApplication extends Application {}
