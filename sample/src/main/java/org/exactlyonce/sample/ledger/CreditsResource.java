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
import java.util.UUID;

/** Takes credit orders and queues them as JMS messages; the consumer books them later. */
@Path("/credits")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CreditsResource {

    /** How many messages later a bulk order re-sends a message, as a retrying producer. */
    private static final int RETRY_LAG = 5;

    /** Room for the index after a producer's own prefix, within the engine's 200 characters of an ID. */
    private static final int MAX_ID_PREFIX_LENGTH = 100;

    @Inject
    CreditSender sender;

    @Inject
    FaultInjection faultInjection;

    @Inject
    AuditTrail auditTrail;

    @Inject
    CreditEvents events;

    /**
     * Queues one credit order: {@code {"messageId":"…","account":"…","amount":N}}; with {@code
     * ?audit=true} also to the audit queue, whose consumer books it to {@code audit-<account>}; with
     * {@code ?topic=true} instead publishes it on the credit events topic, whose two subscribers book it
     * to {@code first-<account>} and {@code second-<account>}; with {@code ?receipt=true} instead queues it
     * for the consumer that books it and sends a receipt, booked to {@code receipts-<account>}.
     */
    @POST
    public Response send(
            CreditOrder order,
            @QueryParam("audit") boolean audit,
            @QueryParam("topic") boolean topic,
            @QueryParam("receipt") boolean receipt) {
        validate(order);
        if (topic) {
            events.publish(order);
            return Response.accepted(order).build();
        }
        if (receipt) {
            sender.sendWithReceipt(order);
            return Response.accepted(order).build();
        }
        sender.send(order);
        if (audit) {
            auditTrail.send(order);
        }
        return Response.accepted(order).build();
    }

    /**
     * Queues {@code count} credits of {@code amount} each to one account, every one {@code copies} times
     * in a row (concurrent deliveries of one ID), and re-sends the first {@code duplicateShare} of them
     * with the same IDs, each a few messages after its first copy, as a producer retrying after a
     * timeout would. The balance must end at {@code count × amount}.
     * {@code "atLeastOnce": true} sends them to the baseline consumer instead, {@code "withReceipts": true}
     * to the consumer that also sends a receipt of each; {@code faults} apply to
     * every message. The IDs are {@code idPrefix + index}: a producer that could not tell whether its
     * order went out (the broker restarted under it) sends it again with the same {@code idPrefix}; without
     * one, the order gets a new prefix.
     */
    @POST
    @Path("/bulk")
    public BulkResult sendBulk(BulkOrder bulk) {
        if (bulk == null || bulk.account() == null || bulk.count() < 1 || bulk.count() > 100_000) {
            throw new BadRequestException("a bulk order needs an account and a count from 1 to 100000");
        }
        if (bulk.faults() != null && !faultInjection.isEnabled()) {
            throw new BadRequestException("fault injection is disabled on this server");
        }
        if (bulk.idPrefix() != null
                && (bulk.idPrefix().isBlank() || bulk.idPrefix().length() > MAX_ID_PREFIX_LENGTH)) {
            throw new BadRequestException("a bulk order's idPrefix has 1 to " + MAX_ID_PREFIX_LENGTH + " characters");
        }
        String prefix = bulk.idPrefix() == null ? UUID.randomUUID() + "-" : bulk.idPrefix();
        int copies = Math.max(1, bulk.copies());
        int resent = (int) Math.round(bulk.count() * Math.max(0, Math.min(1, bulk.duplicateShare())));
        for (int i = 0; i < bulk.count(); i++) {
            for (int copy = 0; copy < copies; copy++) {
                send(bulk, prefix + i);
            }
            int retried = i - RETRY_LAG;
            if (retried >= 0 && retried < resent) {
                send(bulk, prefix + retried);
            }
        }
        for (int retried = Math.max(0, bulk.count() - RETRY_LAG); retried < resent; retried++) {
            send(bulk, prefix + retried);
        }
        return new BulkResult(
                prefix, bulk.count() * copies + resent, bulk.count(), (long) bulk.count() * bulk.amount());
    }

    private void send(BulkOrder bulk, String messageId) {
        CreditOrder order = new CreditOrder(messageId, bulk.account(), bulk.amount(), bulk.faults());
        if (bulk.atLeastOnce()) {
            sender.sendAtLeastOnce(order);
        } else if (bulk.withReceipts()) {
            sender.sendWithReceipt(order);
        } else {
            sender.send(order);
        }
    }

    private void validate(CreditOrder order) {
        if (order == null || isBlank(order.messageId()) || isBlank(order.account())) {
            throw new BadRequestException("a credit order needs a messageId and an account");
        }
        if (order.faults() != null && !faultInjection.isEnabled()) {
            throw new BadRequestException("fault injection is disabled on this server");
        }
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /**
     * A bulk request; {@code idPrefix} defaults to a new one, {@code copies} to 1, {@code duplicateShare} to 0,
     * {@code atLeastOnce} and {@code withReceipts} to false, {@code faults} to none.
     */
    public record BulkOrder(
            String idPrefix,
            String account,
            int count,
            long amount,
            int copies,
            double duplicateShare,
            boolean atLeastOnce,
            boolean withReceipts,
            CreditOrder.Faults faults) {}

    /** What a bulk request sent (IDs {@code idPrefix + 0 … idPrefix + (distinctIds - 1)}) and the balance it must produce. */
    public record BulkResult(String idPrefix, int messagesSent, int distinctIds, long expectedBalance) {}
}
