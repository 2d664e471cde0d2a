package org.exactlyonce.admin;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The console's answers to requests it cannot serve, each with its reason as plain text, which names
 * what is wrong and nothing of the server's insides (an exception without a body reaches the client
 * as its status alone). A malformed request is logged, so an operator sees it too.
 */
final class Refusals {

    private static final Logger LOG = Logger.getLogger(Refusals.class.getName());

    private Refusals() {}

    static BadRequestException badRequest(String reason) {
        LOG.info(() -> "the console refused a request: " + reason);
        return new BadRequestException(answer(Response.Status.BAD_REQUEST, reason));
    }

    /** Refuses the request when there is a problem with it. */
    static void badRequestIf(Optional<String> problem) {
        if (problem.isPresent()) {
            throw badRequest(problem.get());
        }
    }

    static NotFoundException notFound(String reason) {
        return new NotFoundException(answer(Response.Status.NOT_FOUND, reason));
    }

    static ClientErrorException conflict(String reason) {
        return new ClientErrorException(answer(Response.Status.CONFLICT, reason));
    }

    static ServiceUnavailableException unavailable(String reason) {
        LOG.warning(() -> "the console could not answer: " + reason);
        return new ServiceUnavailableException(answer(Response.Status.SERVICE_UNAVAILABLE, reason));
    }

    private static Response answer(Response.Status status, String reason) {
        return Response.status(status)
                .type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                .entity(reason)
                .build();
    }
}
