package org.exactlyonce.internal.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How deliveries run: MicroProfile Config keys of the consumers, checked at start by {@link
 * SettingsCheck} so that a deployment with unusable values fails with the reason.
 */
@ApplicationScoped
public class DeliverySettings {

    /** Deliveries after which a message whose processing keeps failing is parked; at most the queue's limit. */
    @Inject
    @ConfigProperty(name = "exactlyonce.park-after-deliveries", defaultValue = "5")
    int parkAfterDeliveries;

    /**
     * Attempts at a delivery's transaction that fail transiently (a deadlock, a lost connection) before
     * a probe asks whether the database answers.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.database.attempts", defaultValue = "4")
    int databaseAttempts;

    /** How long a delivery waits for a database that is down before it hands its message back to the broker. */
    @Inject
    @ConfigProperty(name = "exactlyonce.outage.hold-delivery", defaultValue = "PT1M")
    Duration holdDelivery;

    public int parkAfterDeliveries() {
        return parkAfterDeliveries;
    }

    public int databaseAttempts() {
        return databaseAttempts;
    }

    public Duration holdDelivery() {
        return holdDelivery;
    }

    /** When a failed delivery parks its message. */
    public ParkingRule parking() {
        return new ParkingRule(parkAfterDeliveries);
    }

    /** What is unusable in these settings; empty when they can be used. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (parkAfterDeliveries < 1) {
            problems.add("exactlyonce.park-after-deliveries must be at least 1 (a message would be parked"
                    + " before any delivery could fail), is " + parkAfterDeliveries);
        }
        if (databaseAttempts < 1) {
            problems.add("exactlyonce.database.attempts must be at least 1, is " + databaseAttempts);
        }
        if (holdDelivery.isNegative()) {
            problems.add("exactlyonce.outage.hold-delivery must not be negative, is " + holdDelivery);
        }
        return problems;
    }
}
