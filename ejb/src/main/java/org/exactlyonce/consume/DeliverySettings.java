package org.exactlyonce.consume;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.park.ParkReason;

/**
 * How deliveries run: MicroProfile Config keys of the consumers, checked at start by {@link
 * SettingsCheck} so that a deployment with unusable values fails with the reason.
 */
@ApplicationScoped
class DeliverySettings {

    /** Deliveries after which a message whose processing keeps failing is parked; at most the queue's limit. */
    @Inject
    @ConfigProperty(name = "exactlyonce.park-after-deliveries", defaultValue = "5")
    int parkAfterDeliveries;

    /** How long a delivery waits for a database that is down before it hands its message back to the broker. */
    @Inject
    @ConfigProperty(name = "exactlyonce.outage.hold-delivery", defaultValue = "PT1M")
    Duration holdDelivery;

    public int parkAfterDeliveries() {
        return parkAfterDeliveries;
    }

    public Duration holdDelivery() {
        return holdDelivery;
    }

    /**
     * Whether a message whose delivery failed is parked, and why: an invalid message at once, with the
     * reason it carries; one whose processing failed, on its last delivery before the limit, as {@link
     * ParkReason#KEEPS_FAILING}. Empty: the delivery rolls back and the broker redelivers the message.
     *
     * @param delivery the failed delivery's number, from 1
     */
    Optional<Parking> parkingAfter(Exception failure, int delivery) {
        if (failure instanceof InvalidMessageException invalid) {
            return Optional.of(new Parking(invalid.reason(), invalid.getMessage()));
        }
        if (delivery >= parkAfterDeliveries) {
            return Optional.of(new Parking(
                    ParkReason.KEEPS_FAILING,
                    "processing failed on delivery " + delivery + " of " + parkAfterDeliveries + ": " + failure));
        }
        return Optional.empty();
    }

    /** What is unusable in these settings; empty when they can be used. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (parkAfterDeliveries < 1) {
            problems.add("exactlyonce.park-after-deliveries must be at least 1 (a message would be parked"
                    + " before any delivery could fail), is " + parkAfterDeliveries);
        }
        if (holdDelivery.isNegative()) {
            problems.add("exactlyonce.outage.hold-delivery must not be negative, is " + holdDelivery);
        }
        return problems;
    }

    /** Why a message is parked: the reason an operator filters by, and the detail. */
    record Parking(ParkReason reason, String detail) {}
}
