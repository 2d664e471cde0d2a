package org.exactlyonce.internal.delivery;

import jakarta.ejb.EJBException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Optional;
import java.util.function.Predicate;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.processed.IdRows.IdRow;
import org.exactlyonce.internal.telemetry.DeliveryTrace;

/**
 * A message-driven bean's side of the protocol, around the {@link Delivery} they share with the
 * batched receiver: the delivery's trace, the message's ID (parked when it has none, or is of a type
 * the bean does not accept), the purge's registry of deliveries in flight, and the exception by which
 * the container has the broker redeliver a message handed back.
 */
public final class BeanDelivery {

    private final Delivery delivery;
    private final Delivery.Processing processing;
    private final Predicate<Message> accepts;
    private final Deliveries deliveries;

    BeanDelivery(Delivery delivery, Delivery.Processing processing, Predicate<Message> accepts, Deliveries deliveries) {
        this.delivery = delivery;
        this.processing = processing;
        this.accepts = accepts;
        this.deliveries = deliveries;
    }

    public String consumer() {
        return delivery.consumer();
    }

    /**
     * Delivers the message; returns once it is processed, dropped or parked, so that the container
     * acknowledges it after the commit.
     *
     * @throws EJBException when the broker is to redeliver it
     */
    public void onMessage(Message message) {
        try (DeliveryTrace trace = deliveries.telemetry.delivery(consumer(), message)) { // current while it runs
            Optional<String> usableId = idOf(message); // 1. read the ID; none: parked
            if (usableId.isPresent()) {
                trace.identified(usableId.get());
                deliver(usableId.get(), message);
            }
        }
    }

    private void deliver(String messageId, Message message) {
        deliveries.inFlight.begin(consumer(), messageId); // before the insert: the purge spares IDs in flight
        try {
            String deliveredBy = deliveries.broker.brokerOf(message).orElse(null); // it may ask the broker
            delivery.deliver(
                    new IdRow(messageId, message, deliveredBy),
                    checked -> deliveries.check(consumer(), checked),
                    processing);
        } catch (HandBack e) {
            throw new EJBException(e.getMessage(), asException(e.getCause()));
        } finally {
            deliveries.inFlight.end(consumer(), messageId);
        }
    }

    /** The message's usable ID; empty when it has none or is of a type not accepted, and is parked. */
    private Optional<String> idOf(Message message) {
        String messageId = null;
        try {
            messageId = deliveries.messageIds.idOf(message);
            if (!accepts.test(message)) {
                throw new RefusedMessage(
                        ParkReason.TYPE_NOT_ACCEPTED,
                        consumer() + " does not accept " + BodyType.of(message).jmsName() + "s");
            }
            return Optional.of(messageId);
        } catch (InvalidMessageException e) {
            park(messageId, message, e);
            return Optional.empty();
        } catch (JMSException e) {
            throw new EJBException(consumer() + " cannot read a message, the broker will redeliver it", e);
        }
    }

    private void park(String messageId, Message message, InvalidMessageException invalid) {
        try {
            delivery.park(messageId, message, invalid.reason(), invalid.getMessage());
        } catch (HandBack e) {
            throw new EJBException(e.getMessage(), asException(e.getCause()));
        }
    }

    private static Exception asException(Throwable cause) {
        return cause instanceof Exception exception ? exception : new IllegalStateException(cause);
    }
}
