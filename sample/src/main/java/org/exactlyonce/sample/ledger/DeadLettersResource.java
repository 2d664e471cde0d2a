package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The credit messages the broker gave up on after its maximum number of deliveries. */
@Path("/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLettersResource {

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = CreditQueues.FAILED_CREDITS)
    Queue failedCredits;

    @GET
    public List<DeadLetter> list() throws JMSException {
        List<DeadLetter> letters = new ArrayList<>();
        try (QueueBrowser browser = jms.createBrowser(failedCredits)) {
            for (Object each : Collections.list(browser.getEnumeration())) {
                Message message = (Message) each;
                letters.add(new DeadLetter(message.getStringProperty("messageId"), message.getJMSMessageID()));
            }
        }
        return letters;
    }

    /** A message on the exception destination. */
    public record DeadLetter(String messageId, String jmsMessageId) {}
}
