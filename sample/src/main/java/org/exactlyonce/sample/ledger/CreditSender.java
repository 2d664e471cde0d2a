package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;

/** Sends credit orders as persistent JMS messages, the order's ID in the {@code messageId} property. */
@ApplicationScoped
public class CreditSender {

    @Resource(lookup = CreditQueues.CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = CreditQueues.CREDITS)
    Queue credits;

    @Resource(lookup = CreditQueues.AT_LEAST_ONCE_CREDITS)
    Queue atLeastOnceCredits;

    @Resource(lookup = CreditQueues.CREDITS_WITH_RECEIPTS)
    Queue creditsWithReceipts;

    /** Sends to the exactly-once consumer. */
    public void send(CreditOrder order) {
        send(order, credits);
    }

    /** Sends to the baseline consumer without a processed-ID table. */
    public void sendAtLeastOnce(CreditOrder order) {
        send(order, atLeastOnceCredits);
    }

    /** Sends to the consumer that books it and sends a receipt through the outbox. */
    public void sendWithReceipt(CreditOrder order) {
        send(order, creditsWithReceipts);
    }

    private void send(CreditOrder order, Queue queue) {
        CreditOrders.send(connectionFactory, queue, order);
    }
}
