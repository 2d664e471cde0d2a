package org.exactlyonce.internal.delivery;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Optional;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;

/**
 * When a failed delivery parks its message instead of handing it back to the broker: an invalid
 * message at once, with the reason it carries; one whose processing failed, on its last delivery
 * before the limit, as {@link ParkReason#KEEPS_FAILING}.
 *
 * @param parkAfterDeliveries deliveries after which a message whose processing keeps failing is parked
 */
public record ParkingRule(int parkAfterDeliveries) {

    /**
     * Whether a message whose delivery failed is parked, and why. Empty: the delivery rolls back and
     * the broker redelivers the message.
     *
     * @param delivery the failed delivery's number, from 1
     */
    public Optional<Parking> parkingAfter(Exception failure, int delivery) {
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

    /** The message's delivery number, from 1, as the broker counts it; 1 when it does not say. */
    public static int deliveryCount(Message message) {
        try {
            return Math.max(1, message.getIntProperty("JMSXDeliveryCount")); // 0: a message no broker delivered
        } catch (JMSException | NumberFormatException e) {
            return 1; // unknown: count it as a first delivery, the broker's limit still applies
        }
    }

    /**
     * Whether the broker says it delivered the message before: an earlier delivery may have failed and
     * been counted. Artemis forgets it when it moves a message to another node, fails over or restarts;
     * the purge forgets such counts once the dedup window is past.
     */
    public static boolean isRedelivery(Message message) {
        try {
            return message.getJMSRedelivered() || deliveryCount(message) > 1;
        } catch (JMSException e) {
            return true; // unknown: forgetting what may not be there costs one statement
        }
    }

    /** Why a message is parked: the reason an operator filters by, and the detail. */
    public record Parking(ParkReason reason, String detail) {}
}
