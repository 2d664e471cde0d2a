package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.jms.JMSRuntimeException;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Takes credit orders and queues them as JMS messages; the consumer books them later. */
@Path("/credits")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CreditsResource {

    private static final Logger LOG = Logger.getLogger(CreditsResource.class.getName());

    @Inject
    CreditSender sender;

    /**
     * Queues one credit order: {@code {"messageId":"…","account":"…","amount":N}}; with {@code
     * ?receipt=true} for the consumer that books it and sends a receipt, booked to {@code
     * receipts-<account>}.
     */
    @POST
    public Response send(CreditOrder order, @QueryParam("receipt") boolean receipt) {
        if (order == null || isBlank(order.messageId()) || isBlank(order.account())) {
            throw new BadRequestException("a credit order needs a messageId and an account");
        }
        if (receipt) {
            sender.sendWithReceipt(order);
        } else {
            sender.send(order);
        }
        return Response.accepted(order).build();
    }

    /** Queues a {@link BulkOrder}'s credits as a retrying producer would. */
    @POST
    @Path("/bulk")
    public BulkOrder.Result sendBulk(BulkOrder bulk) {
        if (bulk == null) {
            throw new BadRequestException("a bulk order needs an account and a count");
        }
        BulkOrder.Plan plan = bulk.plan();
        try {
            plan.messageIds().forEach(id -> sender.send(new CreditOrder(id, bulk.account(), bulk.amount())));
        } catch (JMSRuntimeException e) {
            throw brokerFailedPartWay(plan.result().idPrefix(), e);
        }
        return plan.result();
    }

    /**
     * A bulk order the broker failed part-way: sent again with the same prefix, the credits queued
     * already are dropped as duplicates; with a new one, they would be booked twice.
     */
    private static ServiceUnavailableException brokerFailedPartWay(String idPrefix, JMSRuntimeException failure) {
        LOG.log(Level.WARNING, "The broker failed part-way through bulk order " + idPrefix, failure);
        return new ServiceUnavailableException(BrokerUnavailable.answer("the broker failed part-way through the bulk"
                + " order (" + failure.getMessage() + "); send it again with \"idPrefix\": \"" + idPrefix
                + "\", and the credits queued already are dropped as duplicates"));
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
