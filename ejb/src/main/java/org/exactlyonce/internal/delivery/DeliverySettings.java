package org.exactlyonce.internal.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /**
     * Crashes of the server during a message's processing after which the message is parked as {@code
     * CRASHES_THE_SERVER}; 0 turns the crash guard off.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.crash-guard.crashes-before-parking", defaultValue = "3")
    int crashesBeforeParking;

    /** Where the crash journal is kept; by default WildFly's data directory, or an Open Liberty server's own. */
    @Inject
    @ConfigProperty(name = "exactlyonce.crash-guard.directory")
    Optional<String> crashJournalDirectory;

    /** Deliveries the crash journal holds at once: the server's delivery threads and its batches' messages. */
    @Inject
    @ConfigProperty(name = "exactlyonce.crash-guard.journal-slots", defaultValue = "1024")
    int crashJournalSlots;

    public int parkAfterDeliveries() {
        return parkAfterDeliveries;
    }

    public int databaseAttempts() {
        return databaseAttempts;
    }

    public Duration holdDelivery() {
        return holdDelivery;
    }

    public int crashesBeforeParking() {
        return crashesBeforeParking;
    }

    public Optional<String> crashJournalDirectory() {
        return crashJournalDirectory;
    }

    public int crashJournalSlots() {
        return crashJournalSlots;
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
        if (crashesBeforeParking < 0) {
            problems.add("exactlyonce.crash-guard.crashes-before-parking must be 0 (off) or more, is "
                    + crashesBeforeParking);
        }
        if (crashJournalSlots < 1 || crashJournalSlots > 1_000_000) {
            problems.add("exactlyonce.crash-guard.journal-slots must be from 1 to 1000000, is " + crashJournalSlots);
        }
        return problems;
    }
}
