package org.exactlyonce.admin.health;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The engine's health checks under the console's API, in MicroProfile Health's format, on every server:
 * WildFly's health endpoint does not list the checks of a module inside an EAR (WFLY-12835), Open
 * Liberty's {@code /health} lists them too. 200 when every check is up, else 503.
 */
@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
public class HealthResource {

    private static final Logger LOG = Logger.getLogger(HealthResource.class.getName());

    @Inject
    @Readiness
    Instance<HealthCheck> readiness;

    @Inject
    @Liveness
    Instance<HealthCheck> liveness;

    @GET
    @Operation(summary = "Every check of the engine, readiness and liveness")
    public Response all() {
        return answer(Stream.concat(readiness.stream(), liveness.stream()));
    }

    @GET
    @Path("/ready")
    @Operation(summary = "Readiness: the database, the processed-ID table, the messaging engine")
    public Response ready() {
        return answer(readiness.stream());
    }

    @GET
    @Path("/live")
    @Operation(summary = "Liveness: the purge keeps running")
    public Response live() {
        return answer(liveness.stream());
    }

    private static Response answer(Stream<HealthCheck> checks) {
        JsonArrayBuilder results = Json.createArrayBuilder();
        boolean up = checks.map(HealthResource::called)
                .peek(results::add)
                .map(result -> result.getString("status").equals("UP"))
                .reduce(true, Boolean::logicalAnd);
        JsonObject body = Json.createObjectBuilder()
                .add("status", up ? "UP" : "DOWN")
                .add("checks", results)
                .build();
        return Response.status(up ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
                .entity(body)
                .build();
    }

    /** One check's answer; a check that throws is down, with the exception's class in its data. */
    private static JsonObject called(HealthCheck check) {
        try {
            HealthCheckResponse response = check.call();
            JsonObjectBuilder data = Json.createObjectBuilder();
            response.getData().orElse(Map.of()).forEach((key, value) -> {
                if (value instanceof Number number) {
                    data.add(key, number.longValue());
                } else if (value instanceof Boolean flag) {
                    data.add(key, flag);
                } else {
                    data.add(key, String.valueOf(value));
                }
            });
            return Json.createObjectBuilder()
                    .add("name", response.getName())
                    .add("status", response.getStatus().name())
                    .add("data", data)
                    .build();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "health check " + check.getClass().getName() + " failed", e);
            return Json.createObjectBuilder()
                    .add("name", check.getClass().getSimpleName())
                    .add("status", "DOWN")
                    .add(
                            "data",
                            Json.createObjectBuilder()
                                    .add("problem", e.getClass().getName()))
                    .build();
        }
    }
}
