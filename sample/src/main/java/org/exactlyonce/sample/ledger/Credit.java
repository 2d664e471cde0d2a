package org.exactlyonce.sample.ledger;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * One credit booked to an account. Deliberately without a unique message ID: a message processed twice
 * shows up here as two rows and as a wrong balance.
 */
@Entity
@Table(name = "LEDGER_CREDIT")
public class Credit {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "MESSAGE_ID", nullable = false, length = 400) // 200 characters, in UTF-16 units for Derby
    private String messageId;

    @Column(name = "ACCOUNT", nullable = false, length = 100)
    private String account;

    @Column(name = "AMOUNT", nullable = false)
    private long amount;

    @Column(name = "BOOKED_AT", nullable = false)
    private LocalDateTime bookedAt;

    protected Credit() {}

    Credit(String messageId, String account, long amount, LocalDateTime bookedAt) {
        this.messageId = messageId;
        this.account = account;
        this.amount = amount;
        this.bookedAt = bookedAt;
    }
}
