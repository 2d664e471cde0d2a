package org.exactlyonce.harness;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.MessageListener;

/**
 * A non-durable subscription to the credit events: books to {@code live-<account>} the events published
 * while it is connected: a halted server ends a non-durable subscription, and with it the subscriber's
 * claim to the messages in flight.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = TestQueues.CREDIT_EVENTS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
            @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "NonDurable"),
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class LiveCreditSubscriber extends CreditSubscriber {

    @Override
    String accountPrefix() {
        return "live-";
    }
}
