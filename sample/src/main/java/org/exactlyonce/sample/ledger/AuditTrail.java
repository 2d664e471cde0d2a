package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * The audit copy of credit orders, for the tests of consumer identity: the audit consumer books each
 * order to the account {@code audit-<account>}, so both consumers' effects show in balances.
 */
@ApplicationScoped
public class AuditTrail {

    /** The audit queue's JNDI name. */
    public static final String QUEUE = "jms/ledger/Audit";

    @Inject
    @JMSConnectionFactory(CreditQueues.CONNECTION_FACTORY)
    JMSContext jms;

    @Resource(lookup = QUEUE)
    Queue audit;

    @Inject
    Ledger ledger;

    void send(CreditOrder order) {
        jms.createProducer().setProperty("messageId", order.messageId()).send(audit, CreditOrders.toJson(order));
    }

    /** Books an order's audit credit in the caller's transaction. */
    public void book(String json) {
        CreditOrder order = CreditOrders.fromJson(json);
        ledger.book(new CreditOrder(order.messageId(), "audit-" + order.account(), order.amount(), null));
    }
}
