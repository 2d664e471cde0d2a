package org.exactlyonce.harness;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import org.exactlyonce.sample.ledger.CreditOrders;
import org.exactlyonce.sample.ledger.CreditQueues;

/** Sends test credits, faults and all, to the sample's consumers and to the harness's. */
@ApplicationScoped
public class TestSender {

    /** Where a test credit goes. */
    enum Route {
        /** The sample's ledger consumer. */
        LEDGER,
        /** The sample's consumer that books it and sends a receipt through the outbox. */
        WITH_RECEIPT,
        /** The baseline without a processed-ID table. */
        AT_LEAST_ONCE,
        /** The batched receiver. */
        BATCHED,
        /** The audit consumer, whose class has the ledger consumer's simple name. */
        AUDIT,
        /** The credit events topic, which every subscriber reads. */
        EVENTS
    }

    @Resource(lookup = CreditQueues.CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = CreditQueues.CREDITS)
    Queue credits;

    @Resource(lookup = CreditQueues.CREDITS_WITH_RECEIPTS)
    Queue creditsWithReceipts;

    @Resource(lookup = TestQueues.AT_LEAST_ONCE_CREDITS)
    Queue atLeastOnceCredits;

    @Resource(lookup = TestQueues.BATCHED_CREDITS)
    Queue batchedCredits;

    @Resource(lookup = AuditTrail.QUEUE)
    Queue audit;

    @Resource(lookup = TestQueues.CREDIT_EVENTS)
    Topic events;

    void send(TestCredit credit, Route route) {
        CreditOrders.send(connectionFactory, destinationOf(route), credit.messageId(), credit.toJson());
    }

    private Destination destinationOf(Route route) {
        return switch (route) {
            case LEDGER -> credits;
            case WITH_RECEIPT -> creditsWithReceipts;
            case AT_LEAST_ONCE -> atLeastOnceCredits;
            case BATCHED -> batchedCredits;
            case AUDIT -> audit;
            case EVENTS -> events;
        };
    }
}
