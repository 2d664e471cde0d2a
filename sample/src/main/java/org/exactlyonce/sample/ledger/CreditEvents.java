package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Topic;

/** Publishes credit orders as events on the topic every {@link CreditSubscriber} reads. */
@ApplicationScoped
public class CreditEvents {

    @Resource(lookup = CreditQueues.CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = CreditQueues.CREDIT_EVENTS)
    Topic events;

    void publish(CreditOrder order) {
        CreditOrders.send(connectionFactory, events, order);
    }
}
