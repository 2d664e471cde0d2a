package org.exactlyonce.sample.ledger;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.json.bind.JsonbException;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.InvalidMessageException;

/** Books each credit message once, however often the broker or the producer delivers it. */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = CreditQueues.CREDITS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class LedgerConsumer extends AbstractExactlyOnceConsumer {

    @Inject
    Ledger ledger;

    /** Credit orders come as JSON text. */
    @Override
    protected boolean accepts(Message message) {
        return message instanceof TextMessage;
    }

    @Override
    protected void process(Message message) throws Exception {
        ledger.book(parse(message.getBody(String.class)));
    }

    private static CreditOrder parse(String json) {
        CreditOrder order;
        try {
            order = CreditOrders.fromJson(json);
        } catch (JsonbException e) {
            throw new InvalidMessageException("the payload is not a credit order: " + e.getMessage(), e);
        }
        if (order == null || order.account() == null || order.account().isBlank()) {
            throw new InvalidMessageException("the credit order names no account");
        }
        return order;
    }
}
