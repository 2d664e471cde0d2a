package org.exactlyonce.sample.ledger;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/** Credit orders as JSON, the body of every credit message. */
final class CreditOrders {

    private static final Jsonb JSON = JsonbBuilder.create();

    private CreditOrders() {}

    static String toJson(CreditOrder order) {
        return JSON.toJson(order);
    }

    static CreditOrder fromJson(String json) {
        return JSON.fromJson(json, CreditOrder.class);
    }
}
