package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.jms.JMSRuntimeException;
import jakarta.json.JsonObject;
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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

/** Takes credit orders and queues them as JMS messages; the consumer books them later. */
@Path("/credits")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CreditsResource {

    private static final Logger LOG = Logger.getLogger(CreditsResource.class.getName());

    /** As long as the engine takes an ID. */
    private static final int MAX_MESSAGE_ID_LENGTH = 200;

    /** The ledger's column holds 100, a receipt's account adds {@code receipts-}. */
    static final int MAX_ACCOUNT_LENGTH = 90;

    @Inject
    CreditSender sender;

    /**
     * Queues one credit order: {@code {"messageId":"…","account":"…","amount":N}}; with {@code
     * ?receipt=true} for the consumer that books it and sends a receipt, booked to {@code
     * receipts-<account>}.
     */
    @POST
    @RequestBody(content = @Content(schema = @Schema(implementation = CreditOrder.class)))
    public Response send(String body, @QueryParam("receipt") boolean receipt) {
        JsonObject asked = Requests.object(body, "a credit order {\"messageId\": …, \"account\": …, \"amount\": N}");
        CreditOrder order = new CreditOrder(
                Requests.checked("messageId", Requests.text(asked, "messageId"), MAX_MESSAGE_ID_LENGTH),
                Requests.checked("account", Requests.text(asked, "account"), MAX_ACCOUNT_LENGTH),
                Requests.wholeNumber(asked, "amount", 0));
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
    @RequestBody(content = @Content(schema = @Schema(implementation = BulkOrder.class)))
    public BulkOrder.Result sendBulk(String body) {
        BulkOrder bulk = BulkOrder.of(Requests.object(body, "a bulk order {\"account\": …, \"count\": N, …}"));
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
}
