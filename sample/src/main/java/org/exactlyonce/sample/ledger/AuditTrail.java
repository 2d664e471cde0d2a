package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;

/**
 * The audit copy of credit orders, for the tests of consumer identity: the audit consumer books each
 * order to the account {@code audit-<account>}, so both consumers' effects show in balances.
 */
@ApplicationScoped
public class AuditTrail {

    /** The audit queue's JNDI name. */
    public static final String QUEUE = "jms/ledger/Audit";

    @Resource(lookup = CreditQueues.CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = QUEUE)
    Queue audit;

    @Inject
    Ledger ledger;

    void send(CreditOrder order) {
        CreditOrders.send(connectionFactory, audit, order);
    }

    /** Books an order's audit credit in the caller's transaction. */
    public void book(String json) {
        CreditOrder order = CreditOrders.fromJson(json);
        ledger.book(new CreditOrder(order.messageId(), "audit-" + order.account(), order.amount(), null));
    }
}
