package org.exactlyonce.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.junit.jupiter.api.Test;

class DeclaredSubscriptionTest {

    @MessageDriven(
            activationConfig = {
                @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Topic"),
                @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "Durable"),
                @ActivationConfigProperty(propertyName = "clientId", propertyValue = "billing"),
                @ActivationConfigProperty(propertyName = "subscriptionName", propertyValue = "invoices"),
            })
    static class DurableSubscriber {}

    @MessageDriven(
            activationConfig = {
                @ActivationConfigProperty(propertyName = "subscriptionDurability", propertyValue = "NonDurable"),
            })
    static class NonDurableSubscriber {}

    @MessageDriven(
            activationConfig = {
                @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/invoices"),
            })
    static class ConfiguredByTheServer {}

    @Test
    void aDurableSubscriptionIsNamedWithItsClientId() {
        assertEquals(
                "durable subscription invoices, client ID billing", DeclaredSubscription.of(DurableSubscriber.class));
    }

    @Test
    void aNonDurableSubscriptionHasNoName() {
        assertEquals("non-durable subscription", DeclaredSubscription.of(NonDurableSubscriber.class));
    }

    @Test
    void aSubscriptionTheBeanDoesNotDeclareIsSaidToBeUndeclared() {
        assertEquals(DeclaredSubscription.UNDECLARED, DeclaredSubscription.of(ConfiguredByTheServer.class));
        assertEquals(DeclaredSubscription.UNDECLARED, DeclaredSubscription.of(Object.class));
    }
}
