package org.exactlyonce.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** One consumer name on two subscriptions of a topic is refused where the server deploys the second. */
class LocalConsumersTest {

    private final LocalConsumers consumers = new LocalConsumers();

    @Test
    void oneNameOnTwoDurableSubscriptionsIsRefusedNamingBoth() {
        consumers.deployed("credits", "bean First", "durable subscription first", Set.of());

        IllegalStateException refused = assertThrows(
                IllegalStateException.class,
                () -> consumers.deployed("credits", "bean Second", "durable subscription second", Set.of()));

        assertTrue(refused.getMessage().contains("durable subscription first of bean First"), refused.getMessage());
        assertTrue(refused.getMessage().contains("durable subscription second of bean Second"), refused.getMessage());
    }

    @Test
    void twoBeansWithOneNameOnNonDurableSubscriptionsAreRefused() {
        consumers.deployed("events", "bean First", DeclaredSubscription.NON_DURABLE, Set.of());

        assertThrows(
                IllegalStateException.class,
                () -> consumers.deployed("events", "bean Second", DeclaredSubscription.NON_DURABLE, Set.of()));
    }

    @Test
    void theInstancesOfOneBeanAndReceiversSharingASubscriptionAreOneSubscriber() {
        for (int instance = 0; instance < 3; instance++) {
            consumers.deployed("credits", "bean First", "durable subscription first", Set.of());
            consumers.deployed("events", "bean Live", DeclaredSubscription.NON_DURABLE, Set.of());
            consumers.deployed("batched", "a batched receiver", "shared durable subscription all", Set.of());
        }
    }

    @Test
    void readersOfAQueueAndSubscriptionsTheServerSetsAreNotCompared() {
        consumers.deployed("orders", "bean First", DeclaredSubscription.UNDECLARED, Set.of());
        consumers.deployed("orders-batched", "a batched receiver", "", Set.of());

        assertDoesNotThrow(() -> {
            consumers.deployed("orders", "bean Second", DeclaredSubscription.UNDECLARED, Set.of());
            consumers.deployed("orders-batched", "a batched receiver", "", Set.of());
        });
    }
}
