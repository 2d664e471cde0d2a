package org.exactlyonce.harness;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.exactlyonce.sample.ledger.CreditQueues;

/**
 * The credit messages the broker gave up on after its maximum number of deliveries. With fault
 * injection enabled, tests also put a copy of a credit there and take it away again, as the broker and
 * an operator do.
 */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLettersResource {

    private static final long RECEIVE_MILLIS = 2_000;

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = TestQueues.FAILED_CREDITS)
    Queue failedCredits;

    @Inject
    FaultInjection faults;

    @GET
    public List<DeadLetter> list() throws JMSException {
        List<DeadLetter> letters = new ArrayList<>();
        try (QueueBrowser browser = jms.createBrowser(failedCredits)) {
            for (Object each : Collections.list(browser.getEnumeration())) {
                Message message = (Message) each;
                letters.add(new DeadLetter(
                        message.getStringProperty("messageId"), message.getJMSMessageID(), propertiesOf(message)));
            }
        }
        return letters;
    }

    /** Puts a text message with this ID on the exception destination, as the broker puts a failed one. */
    @POST
    @Path("{messageId}")
    public Response put(@PathParam("messageId") String messageId) {
        faults.refuseUnlessEnabled();
        jms.createProducer().setProperty("messageId", messageId).send(failedCredits, "a copy of " + messageId);
        return Response.noContent().build();
    }

    /** Takes the messages with this ID off the exception destination, as an operator does. */
    @DELETE
    @Path("{messageId}")
    public Response take(@PathParam("messageId") String messageId) {
        faults.refuseUnlessEnabled();
        try (JMSConsumer consumer =
                jms.createConsumer(failedCredits, "messageId = '" + messageId.replace("'", "''") + "'")) {
            while (consumer.receive(RECEIVE_MILLIS) != null) {
                // taken
            }
        }
        return Response.noContent().build();
    }

    private static Map<String, String> propertiesOf(Message message) throws JMSException {
        Map<String, String> properties = new TreeMap<>();
        for (Object name : Collections.list(message.getPropertyNames())) {
            properties.put((String) name, String.valueOf(message.getObjectProperty((String) name)));
        }
        return properties;
    }

    /** A message on the exception destination, with the properties the broker added. */
    public record DeadLetter(String messageId, String jmsMessageId, Map<String, String> properties) {}
}
