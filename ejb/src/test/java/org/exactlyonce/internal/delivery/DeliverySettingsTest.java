package org.exactlyonce.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.exactlyonce.ParkReason;
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
    void noAttemptAtTheDatabaseIsRefused() {
        DeliverySettings settings = settings(5, Duration.ofMinutes(1));
        settings.databaseAttempts = 0;

        assertEquals(List.of("exactlyonce.database.attempts must be at least 1, is 0"), settings.problems());
    }

    @Test
    void aNegativeCrashBoundAndAJournalWithoutSlotsAreRefused() {
        DeliverySettings settings = settings(5, Duration.ofMinutes(1));
        settings.crashesBeforeParking = -1;
        settings.crashJournalSlots = 0;

        assertEquals(
                List.of(
                        "exactlyonce.crash-guard.crashes-before-parking must be 0 (off) or more, is -1",
                        "exactlyonce.crash-guard.journal-slots must be from 1 to 1000000, is 0"),
                settings.problems());
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

    /**
     * A name a JMS selector could not use is no property a producer can set, and a header's name reads
     * a property of that name, which no message carries: every message would be parked as missing its ID.
     */
    @Test
    void anIdPropertyThatNoMessageCanCarryIsRefused() {
        for (String name :
                List.of("message-id", "1st", "order id", "NULL", "true", "Between", "JMSCorrelationID", "JMSType")) {
            MessageIds ids = new MessageIds();
            ids.idProperty = name;

            List<String> problems = ids.problems();

            assertEquals(1, problems.size(), name + ": " + problems);
            assertTrue(problems.get(0).startsWith("exactlyonce.message-id.property"), problems.get(0));
            assertTrue(problems.get(0).contains("'" + name + "'"), problems.get(0));
        }
    }

    @Test
    void propertyNamesAndTheBrokersMessageIdAreUsable() {
        for (String name :
                List.of("messageId", "order_id", "$id", "idÄ2", "JMSMessageID", "JMSXGroupID", "JMS_vendor_id")) {
            MessageIds ids = new MessageIds();
            ids.idProperty = name;

            assertEquals(List.of(), ids.problems(), name);
        }
    }

    @Test
    void anInvalidMessageIsParkedAtOnceWithTheReasonItCarries() {
        var parking = settings(5, Duration.ZERO)
                .parking()
                .parkingAfter(new RefusedMessage(ParkReason.MISSING_ID, "no ID"), 1)
                .orElseThrow();

        assertEquals(ParkReason.MISSING_ID, parking.reason());
        assertEquals("no ID", parking.detail());
    }

    @Test
    void aMessageWhoseProcessingFailsIsRedeliveredBeforeItsLastDelivery() {
        DeliverySettings settings = settings(3, Duration.ZERO);

        assertEquals(Optional.empty(), settings.parking().parkingAfter(new IllegalStateException("boom"), 1));
        assertEquals(Optional.empty(), settings.parking().parkingAfter(new IllegalStateException("boom"), 2));
    }

    @Test
    void aMessageWhoseProcessingFailsOnItsLastDeliveryIsParkedAsKeepsFailingWithTheFailure() {
        var parking = settings(3, Duration.ZERO)
                .parking()
                .parkingAfter(new IllegalStateException("boom"), 3)
                .orElseThrow();

        assertEquals(ParkReason.KEEPS_FAILING, parking.reason());
        assertEquals("processing failed on delivery 3 of 3: java.lang.IllegalStateException: boom", parking.detail());
    }

    private static DeliverySettings settings(int parkAfterDeliveries, Duration holdDelivery) {
        DeliverySettings settings = new DeliverySettings();
        settings.parkAfterDeliveries = parkAfterDeliveries;
        settings.holdDelivery = holdDelivery;
        settings.databaseAttempts = 4;
        settings.crashesBeforeParking = 3;
        settings.crashJournalDirectory = Optional.empty();
        settings.crashJournalSlots = 1024;
        return settings;
    }
}
