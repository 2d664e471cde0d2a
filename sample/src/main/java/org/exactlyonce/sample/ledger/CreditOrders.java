package org.exactlyonce.sample.ledger;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/** Credit orders as JSON, the body of every credit message, and their sending. */
public final class CreditOrders {

    private static final Jsonb JSON = JsonbBuilder.create();

    private CreditOrders() {}

    public static String toJson(CreditOrder order) {
        return JSON.toJson(order);
    }

    /** The order in a message's body; properties it does not know are ignored. */
    public static CreditOrder fromJson(String json) {
        return JSON.fromJson(json, CreditOrder.class);
    }

    /** Sends the order as {@link #send(ConnectionFactory, Destination, String, String)} does. */
    static void send(ConnectionFactory connectionFactory, Destination destination, CreditOrder order) {
        send(connectionFactory, destination, order.messageId(), toJson(order));
    }

    /**
     * Sends a persistent text message, its ID in the {@code messageId} property. A context per send, not
     * an injected one held by an application-scoped bean: a resource adapter's session (Artemis' on
     * Liberty) is closed at the end of the request that opened it.
     */
    public static void send(
            ConnectionFactory connectionFactory, Destination destination, String messageId, String json) {
        try (JMSContext jms = connectionFactory.createContext()) {
            jms.createProducer().setProperty("messageId", messageId).send(destination, json);
        }
    }
}
