package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Topic;

/** Publishes credit orders as events on the topic every {@link CreditSubscriber} reads. */
@ApplicationScoped
public class CreditEvents {

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = CreditQueues.CREDIT_EVENTS)
    Topic events;

    void publish(CreditOrder order) {
        jms.createProducer().setProperty("messageId", order.messageId()).send(events, CreditOrders.toJson(order));
    }
}
