package org.exactlyonce.harness;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.exactlyonce.sample.ledger.CreditOrder;
import org.exactlyonce.sample.ledger.CreditOrders;
import org.exactlyonce.sample.ledger.Ledger;

/**
 * The audit copy of credit orders, for the tests of consumer identity: the audit consumer books each
 * order to the account {@code audit-<account>}, so both consumers' effects show in balances.
 */
@ApplicationScoped
public class AuditTrail {

    /** The audit queue's JNDI name. */
    public static final String QUEUE = "jms/ledger/Audit";

    @Inject
    Ledger ledger;

    /** Books an order's audit credit in the caller's transaction. */
    public void book(String json) {
        CreditOrder order = CreditOrders.fromJson(json);
        ledger.book(new CreditOrder(order.messageId(), "audit-" + order.account(), order.amount()));
    }
}
