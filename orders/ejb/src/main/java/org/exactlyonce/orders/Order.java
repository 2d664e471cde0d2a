package org.exactlyonce.orders;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order as booked: the message's text, one row per processing. */
@Entity
@Table(name = "ORDERS")
public class Order {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String description;

    protected Order() {}

    public Order(String description) {
        this.description = description;
    }

    public String getDescription() {
        return description;
    }
}
