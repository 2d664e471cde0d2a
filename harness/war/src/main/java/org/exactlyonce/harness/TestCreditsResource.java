package org.exactlyonce.harness;

import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.exactlyonce.harness.TestSender.Route;
import org.exactlyonce.sample.ledger.BulkOrder;

/**
 * The sample's credits API with what the tests add: faults to inject, and the harness's consumers as
 * destinations. Faults are refused unless the server enables fault injection.
 */
@Path("/test-credits")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class TestCreditsResource {

    @Inject
    TestSender sender;

    @Inject
    FaultInjection faultInjection;

    @Inject
    BatchedLedger batchedLedger;

    /**
     * Queues one test credit: {@code {"messageId":"…","account":"…","amount":N,"faults":{…}}}; with
     * {@code ?audit=true} also to the audit queue, whose consumer books it to {@code audit-<account>};
     * with {@code ?topic=true} instead publishes it on the credit events topic, whose durable subscribers
     * book it to {@code first-<account>} and {@code second-<account>} and whose non-durable one to {@code
     * live-<account>}; with {@code ?receipt=true} instead queues it for the consumer that books it and
     * sends a receipt, booked to {@code receipts-<account>}.
     */
    @POST
    public Response send(
            TestCredit credit,
            @QueryParam("audit") boolean audit,
            @QueryParam("topic") boolean topic,
            @QueryParam("receipt") boolean receipt) {
        if (credit == null || isBlank(credit.messageId()) || isBlank(credit.account())) {
            throw new BadRequestException("a credit order needs a messageId and an account");
        }
        refuseFaultsUnlessEnabled(credit.faults());
        if (topic) {
            sender.send(credit, Route.EVENTS);
        } else if (receipt) {
            sender.send(credit, Route.WITH_RECEIPT);
        } else {
            sender.send(credit, Route.LEDGER);
            if (audit) {
                sender.send(credit, Route.AUDIT);
            }
        }
        return Response.accepted(credit).build();
    }

    /**
     * Queues a bulk order as the sample does, to the ledger's consumer, or with {@code "atLeastOnce":
     * true} to the baseline, or with {@code "withReceipts": true} to the consumer that also sends a
     * receipt of each, or with {@code "batched": true} to the batched receiver; {@code faults} apply to
     * every message.
     */
    @POST
    @Path("/bulk")
    public BulkOrder.Result sendBulk(TestBulkOrder bulk) {
        if (bulk == null) {
            throw new BadRequestException("a bulk order needs an account and a count");
        }
        refuseFaultsUnlessEnabled(bulk.faults());
        BulkOrder.Plan plan = new BulkOrder(
                        bulk.idPrefix(),
                        bulk.account(),
                        bulk.count(),
                        bulk.amount(),
                        bulk.copies(),
                        bulk.duplicateShare())
                .plan();
        Route route = bulk.atLeastOnce()
                ? Route.AT_LEAST_ONCE
                : bulk.withReceipts() ? Route.WITH_RECEIPT : bulk.batched() ? Route.BATCHED : Route.LEDGER;
        plan.messageIds()
                .forEach(id -> sender.send(new TestCredit(id, bulk.account(), bulk.amount(), bulk.faults()), route));
        return plan.result();
    }

    /**
     * {@code {"receivers":N,"maxMessages":M}}: the batched ledger's receivers stopped and {@code N}
     * started in their place, with batches of up to {@code M}; 0 receivers pause it.
     */
    @POST
    @Path("/batched-receivers")
    public Response runBatchedReceivers(BatchedReceivers request) {
        if (request == null || request.receivers() < 0 || request.receivers() > 64) {
            throw new BadRequestException("receivers must be from 0 to 64");
        }
        if (request.receivers() > 0 && (request.maxMessages() < 1 || request.maxMessages() > 10_000)) {
            throw new BadRequestException("maxMessages must be from 1 to 10000");
        }
        batchedLedger.run(request.receivers(), request.maxMessages());
        return Response.noContent().build();
    }

    /** How many batched receivers run, and how large their batches may be. */
    public record BatchedReceivers(int receivers, int maxMessages) {}

    private void refuseFaultsUnlessEnabled(TestCredit.Faults faults) {
        if (faults != null) {
            faultInjection.refuseUnlessEnabled();
        }
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** The sample's {@link BulkOrder} with a route and faults; {@code atLeastOnce}, {@code withReceipts} and {@code batched} default to false. */
    public record TestBulkOrder(
            String idPrefix,
            String account,
            int count,
            long amount,
            int copies,
            double duplicateShare,
            boolean atLeastOnce,
            boolean withReceipts,
            boolean batched,
            TestCredit.Faults faults) {}
}
