package org.exactlyonce.sample.ledger;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.exactlyonce.AbstractExactlyOnceConsumer;

/**
 * Files each receipt once, downstream of {@link ReceiptingLedgerConsumer}: a receipt the outbox's
 * relay sends again carries the same ID, and is dropped here.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = CreditQueues.RECEIPTS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class ReceiptConsumer extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    @Override
    protected void process(Message message) throws Exception {
        ledger.book(CreditOrders.fromJson(message.getBody(String.class)));
    }
}
