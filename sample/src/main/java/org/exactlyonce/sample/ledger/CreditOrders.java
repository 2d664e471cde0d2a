package org.exactlyonce.sample.ledger;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/** Credit orders as JSON, the body of every credit message, and their sending. */
final class CreditOrders {

    private static final Jsonb JSON = JsonbBuilder.create();

    private CreditOrders() {}

    static String toJson(CreditOrder order) {
        return JSON.toJson(order);
    }

    static CreditOrder fromJson(String json) {
        return JSON.fromJson(json, CreditOrder.class);
    }

    /**
     * Sends the order as a persistent text message, its ID in the {@code messageId} property. A context
     * per send, not an injected one held by an application-scoped bean: a resource adapter's session
     * (Artemis' on Liberty) is closed at the end of the request that opened it.
     */
    static void send(ConnectionFactory connectionFactory, Destination destination, CreditOrder order) {
        try (JMSContext jms = connectionFactory.createContext()) {
            jms.createProducer().setProperty("messageId", order.messageId()).send(destination, toJson(order));
        }
    }
}
