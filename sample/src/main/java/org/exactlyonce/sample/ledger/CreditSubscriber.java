package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.exactlyonce.consume.AbstractExactlyOnceConsumer;

/**
 * A durable subscriber to the credit events topic, for the tests of topic consumers: each of the two
 * books every event to an account of its own, {@code <prefix><account>}, so that both subscribers'
 * effects show in balances. A test harness, like the audit consumer.
 */
public abstract class CreditSubscriber extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    @Inject
    FaultInjection faults;

    /** What this subscriber's accounts begin with. */
    abstract String accountPrefix();

    @Override
    protected boolean accepts(Message message) {
        return message instanceof TextMessage;
    }

    @Override
    protected void process(Message message) throws Exception {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        faults.failOrDelayIfAsked(order, message);
        ledger.book(new CreditOrder(order.messageId(), accountPrefix() + order.account(), order.amount(), null));
    }
}
