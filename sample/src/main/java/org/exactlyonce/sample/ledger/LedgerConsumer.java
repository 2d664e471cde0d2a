package org.exactlyonce.sample.ledger;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import org.exactlyonce.consume.AbstractExactlyOnceConsumer;

/** Books each credit message once, however often the broker or the producer delivers it. */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = CreditQueues.CREDITS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class LedgerConsumer extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    @Inject
    FaultInjection faults;

    @Override
    protected void process(Message message) throws Exception {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        faults.failDeliveryIfAsked(order, message);
        ledger.book(order);
    }
}
