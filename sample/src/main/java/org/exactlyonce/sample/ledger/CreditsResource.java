package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Takes credit orders and queues them as JMS messages; the consumer books them later. */
@Path("/credits")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CreditsResource {

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
        plan.messageIds().forEach(id -> sender.send(new CreditOrder(id, bulk.account(), bulk.amount())));
        return plan.result();
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
