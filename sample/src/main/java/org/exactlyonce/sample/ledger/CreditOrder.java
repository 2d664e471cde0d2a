package org.exactlyonce.sample.ledger;

/**
 * A request to credit an account: the JSON a client posts and the body of the JMS message.
 *
 * @param messageId the producer's ID for this credit; re-sending it must not credit twice
 * @param account the account to credit
 * @param amount the amount, in the smallest currency unit
 * @param faults faults to inject while processing it, for demonstrations and tests; {@code null} for none
 */
public record CreditOrder(String messageId, String account, long amount, Faults faults) {

    /** The receipt of this credit: the same amount, booked to {@code receipts-<account>}. */
    public CreditOrder receipt() {
        return new CreditOrder(messageId, "receipts-" + account, amount, null);
    }

    /**
     * Faults a test server can inject (see {@link FaultInjection}).
     *
     * @param failDeliveries how many deliveries fail before one succeeds
     * @param crashAt the protocol step at which the server halts, once per message
     * @param pauseMillis how long the delivery waits at that step before the halt
     * @param processMillis how long each delivery takes, to slow a stream down
     * @param failUntilEpochMilli every delivery fails until this time (a transient outage of a dependency)
     * @param deadlocks how many attempts fail as a database deadlock would (SQLState 40001), counted
     *     across deliveries by this server
     */
    public record Faults(
            int failDeliveries,
            String crashAt,
            long pauseMillis,
            long processMillis,
            long failUntilEpochMilli,
            int deadlocks) {}
}
