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

    @Resource(lookup = CreditQueues.CREDITS_WITH_RECEIPTS)
    Queue creditsWithReceipts;

    /** Sends to the exactly-once consumer. */
    public void send(CreditOrder order) {
        CreditOrders.send(connectionFactory, credits, order);
    }

    /** Sends to the consumer that books it and sends a receipt through the outbox. */
    public void sendWithReceipt(CreditOrder order) {
        CreditOrders.send(connectionFactory, creditsWithReceipts, order);
    }
}
