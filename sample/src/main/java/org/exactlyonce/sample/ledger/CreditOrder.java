package org.exactlyonce.sample.ledger;

/**
 * A request to credit an account: the JSON a client posts and the body of the JMS message.
 *
 * @param messageId the producer's ID for this credit; re-sending it must not credit twice
 * @param account the account to credit
 * @param amount the amount, in the smallest currency unit
 */
public record CreditOrder(String messageId, String account, long amount) {

    /** The receipt of this credit: the same amount, booked to {@code receipts-<account>}. */
    public CreditOrder receipt() {
        return new CreditOrder(messageId, "receipts-" + account, amount);
    }
}
