package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/** Sends credit orders as persistent JMS messages, the order's ID in the {@code messageId} property. */
@ApplicationScoped
public class CreditSender {

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = CreditQueues.CREDITS)
    Queue credits;

    @Resource(lookup = CreditQueues.AT_LEAST_ONCE_CREDITS)
    Queue atLeastOnceCredits;

    /** Sends to the exactly-once consumer. */
    public void send(CreditOrder order) {
        send(order, credits);
    }

    /** Sends to the baseline consumer without a processed-ID table. */
    public void sendAtLeastOnce(CreditOrder order) {
        send(order, atLeastOnceCredits);
    }

    private void send(CreditOrder order, Queue queue) {
        jms.createProducer().setProperty("messageId", order.messageId()).send(queue, CreditOrders.toJson(order));
    }
}
