package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;

/**
 * Sends messages a well-behaved producer never would — no ID, an empty or huge one, the wrong type, a
 * body that is no credit order — to show how the consumer parks them. Only on a server with fault
 * injection enabled.
 */
@Path("/test-messages")
@Consumes(MediaType.APPLICATION_JSON)
public class TestMessagesResource {

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = CreditQueues.CREDITS)
    Queue credits;

    @Inject
    FaultInjection faults;

    /**
     * {@code {"messageId": "…" or absent, "type": "text" or "bytes", "body": "…"}}: sends the body as is,
     * with the ID property only when given.
     */
    @POST
    public Response send(RawMessage raw) throws JMSException {
        if (!faults.isEnabled()) {
            throw new BadRequestException("fault injection is disabled on this server");
        }
        byte[] body = (raw.body() == null ? "" : raw.body()).getBytes(StandardCharsets.UTF_8);
        Message message = "bytes".equals(raw.type()) ? bytesMessage(body) : jms.createTextMessage(raw.body());
        if (raw.messageId() != null) {
            message.setStringProperty("messageId", raw.messageId());
        }
        jms.createProducer().send(credits, message);
        return Response.accepted().build();
    }

    private BytesMessage bytesMessage(byte[] body) throws JMSException {
        BytesMessage message = jms.createBytesMessage();
        message.writeBytes(body);
        return message;
    }

    /** A message as a test wants it sent. */
    public record RawMessage(String messageId, String type, String body) {}
}
