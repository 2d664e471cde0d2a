package org.exactlyonce.orders.sender;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;

/**
 * Puts orders on the user's queue as a retrying producer would: order {@code first} to
 * {@code first + count - 1}, each {@code copies} times with the same ID, its text {@code order-<n>}.
 */
@Path("/orders")
@RequestScoped // a CDI bean, so that WildFly injects its resources too
public class OrdersResource {

    /** The sender's REST API, under {@code /orders-sender/api}. */
    @ApplicationPath("/api")
    public static class SenderApplication extends Application {}

    @Resource(name = "jms/ConnectionFactory")
    ConnectionFactory connectionFactory;

    @Resource(name = "jms/orders")
    Queue orders;

    @POST
    public int send(@QueryParam("first") int first, @QueryParam("count") int count, @QueryParam("copies") int copies) {
        try (JMSContext context = connectionFactory.createContext()) {
            for (int n = first; n < first + count; n++) {
                for (int copy = 0; copy < copies; copy++) {
                    context.createProducer()
                            .setProperty("messageId", "order-" + n)
                            .send(orders, "order-" + n);
                }
            }
        }
        return count * copies;
    }
}
