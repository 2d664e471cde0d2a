package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.exactlyonce.consume.ProtocolStep.Step;

/** Arms a crash of the server at a protocol step, on a server with fault injection enabled. */
@Path("/faults")
@Consumes(MediaType.APPLICATION_JSON)
public class FaultsResource {

    @Inject
    FaultInjection faults;

    /** {@code {"step":"AFTER_COMMIT"}}: the next delivery or purge that reaches the step halts the server. */
    @POST
    @Path("/crash")
    public Response armCrash(CrashRequest request) {
        if (!faults.isEnabled()) {
            throw new BadRequestException("fault injection is disabled on this server");
        }
        try {
            faults.arm(Step.valueOf(request.step()));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BadRequestException("no such protocol step: " + request.step());
        }
        return Response.accepted().build();
    }

    /** Where to crash. */
    public record CrashRequest(String step) {}
}
