package org.exactlyonce.sample.ledger;

import jakarta.jms.JMSRuntimeException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A send the broker did not take answers 503 with the reason, so the client sends the order again:
 * safe, as the consumer books a message ID once however often it arrives. A pooled connection finds
 * out that its broker restarted only when the next send fails on it; the send after that opens a new
 * one.
 */
@Provider
public class BrokerUnavailable implements ExceptionMapper<JMSRuntimeException> {

    private static final Logger LOG = Logger.getLogger(BrokerUnavailable.class.getName());

    /** Seconds a client waits before it sends again. */
    static final int RETRY_AFTER_SECONDS = 1;

    @Override
    public Response toResponse(JMSRuntimeException failure) {
        LOG.log(Level.WARNING, "The broker did not take a message; the client is asked to send it again", failure);
        return answer("the broker did not take the message (" + failure.getMessage() + "); send it again");
    }

    /** A 503 that tells the client, in the text given, what to send again. */
    static Response answer(String sendAgain) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header("Retry-After", RETRY_AFTER_SECONDS)
                .type(MediaType.TEXT_PLAIN_TYPE)
                .entity(sendAgain)
                .build();
    }
}
