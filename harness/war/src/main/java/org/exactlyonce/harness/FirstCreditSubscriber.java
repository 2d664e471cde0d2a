package org.exactlyonce.harness;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.MessageListener;

/** The first durable subscription to the credit events: books to {@code first-<account>}. */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = TestQueues.CREDIT_EVENTS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
            @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
            @ActivationConfigProperty(propertyName = "clientId", propertyValue = "ledger-first"),
            @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "credit-events"),
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class FirstCreditSubscriber extends CreditSubscriber {

    @Override
    String accountPrefix() {
        return "first-";
    }
}
