package org.exactlyonce.harness;

import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.sample.ledger.CreditOrder;
import org.exactlyonce.sample.ledger.CreditOrders;
import org.exactlyonce.sample.ledger.Ledger;

/**
 * A subscriber to the credit events topic, for the tests of topic consumers: each books every event to
 * an account of its own, {@code <prefix><account>}, so that every subscriber's effects show in
 * balances. A test harness, like the audit consumer.
 */
public abstract class CreditSubscriber extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    /** What this subscriber's accounts begin with. */
    abstract String accountPrefix();

    @Override
    protected boolean accepts(Message message) {
        return message instanceof TextMessage;
    }

    @Override
    protected void process(Message message) throws Exception {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        ledger.book(new CreditOrder(order.messageId(), accountPrefix() + order.account(), order.amount()));
    }
}
