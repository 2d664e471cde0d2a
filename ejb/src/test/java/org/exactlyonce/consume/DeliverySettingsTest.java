package org.exactlyonce.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeliverySettingsTest {

    @Test
    void theDefaultsAreUsable() {
        assertEquals(0, settings(5, Duration.ofMinutes(1)).problems().size());
    }

    @Test
    void parkingBeforeAnyDeliveryCouldFailIsRefused() {
        var problems = settings(0, Duration.ofMinutes(1)).problems();

        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("exactlyonce.park-after-deliveries must be at least 1"), problems.get(0));
    }

    @Test
    void aNegativeHoldIsRefused() {
        assertTrue(settings(5, Duration.ofSeconds(-1)).problems().get(0).contains("exactlyonce.outage.hold-delivery"));
    }

    @Test
    void aBlankIdPropertyIsRefused() {
        MessageIds ids = new MessageIds();
        ids.idProperty = " ";

        assertTrue(ids.problems().get(0).contains("exactlyonce.message-id.property"));
    }

    private static DeliverySettings settings(int parkAfterDeliveries, Duration holdDelivery) {
        DeliverySettings settings = new DeliverySettings();
        settings.parkAfterDeliveries = parkAfterDeliveries;
        settings.holdDelivery = holdDelivery;
        return settings;
    }
}
