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

    public void send(CreditOrder order) {
        jms.createProducer().setProperty("messageId", order.messageId()).send(credits, CreditOrders.toJson(order));
    }
}
