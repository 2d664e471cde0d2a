package org.exactlyonce.bench;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.json.Json;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.util.UUID;

/**
 * Queues credit orders for the XA consumer, in the sample's message format. Request-scoped: a CDI bean,
 * so that WildFly injects its JMS context (a resource class with no scope is none in an archive without
 * beans.xml).
 */
@RequestScoped
@Path("/xa-credits")
public class XaCreditsResource {

    @Inject
    @JMSConnectionFactory("jms/ledger/ConnectionFactory")
    JMSContext jms;

    @Resource(lookup = "jms/bench/CreditsXa")
    Queue credits;

    /** Queues {@code count} credits of 1 to the account, with IDs {@code <random>-0 …}; returns the prefix. */
    @POST
    public String send(@QueryParam("account") String account, @QueryParam("count") int count) {
        String prefix = UUID.randomUUID() + "-";
        for (int i = 0; i < count; i++) {
            String id = prefix + i;
            String order = Json.createObjectBuilder()
                    .add("messageId", id)
                    .add("account", account)
                    .add("amount", 1)
                    .build()
                    .toString();
            jms.createProducer().setProperty("messageId", id).send(credits, order);
        }
        return prefix;
    }
}
