package org.exactlyonce.sample.ledger;

import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.exactlyonce.consume.AbstractExactlyOnceConsumer;

/**
 * A subscriber to the credit events topic, for the tests of topic consumers: each books every event to
 * an account of its own, {@code <prefix><account>}, so that every subscriber's effects show in
 * balances. A test harness, like the audit consumer.
 */
public abstract class CreditSubscriber extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    @Inject
    FaultInjection faults;

    /** What this subscriber's accounts begin with. */
    abstract String accountPrefix();

    /** Whether a credit order's faults (failures, a halt) apply to this subscriber. */
    boolean honoursFaults() {
        return true;
    }

    @Override
    protected boolean accepts(Message message) {
        return message instanceof TextMessage;
    }

    @Override
    protected void process(Message message) throws Exception {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        if (honoursFaults()) {
            faults.failOrDelayIfAsked(order, message);
        }
        ledger.book(new CreditOrder(order.messageId(), accountPrefix() + order.account(), order.amount(), null));
    }
}
