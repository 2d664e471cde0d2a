package org.exactlyonce.sample.ledger;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.outbox.Outbox;
import org.exactlyonce.outbox.OutgoingMessage;

/**
 * Books each credit once and sends its receipt once: the receipt goes through the outbox, written in
 * the transaction that books the credit and sent after it commits.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(
                    propertyName = "destinationLookup",
                    propertyValue = CreditQueues.CREDITS_WITH_RECEIPTS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class ReceiptingLedgerConsumer extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    @Inject
    Outbox outbox;

    @Resource(lookup = CreditQueues.RECEIPTS)
    Queue receipts;

    @Override
    protected void process(Message message) throws Exception {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        ledger.book(order);
        outbox.send(receipts, OutgoingMessage.text(CreditOrders.toJson(order.receipt())));
    }
}
