package org.exactlyonce.sample.ledger;

/** JNDI names of the sample's messaging resources, defined in the server configuration. */
final class CreditQueues {

    static final String CONNECTION_FACTORY = "jms/ledger/ConnectionFactory";

    /** Credit orders, consumed by {@link LedgerConsumer}. */
    static final String CREDITS = "jms/ledger/Credits";

    /** Credit orders for {@link AtLeastOnceConsumer}, the baseline without a processed-ID table. */
    static final String AT_LEAST_ONCE_CREDITS = "jms/ledger/CreditsAtLeastOnce";

    /** Credit orders for {@link ReceiptingLedgerConsumer}, which books each and sends a receipt. */
    static final String CREDITS_WITH_RECEIPTS = "jms/ledger/CreditsWithReceipts";

    /** Receipts, sent through the outbox and filed by {@link ReceiptConsumer}. */
    static final String RECEIPTS = "jms/ledger/Receipts";

    /** The exception destination of {@link #CREDITS}: messages the broker gave up on. */
    static final String FAILED_CREDITS = "jms/ledger/FailedCredits";

    /** Credit events, a topic: each {@link CreditSubscriber} books every one. */
    static final String CREDIT_EVENTS = "jms/ledger/CreditEvents";

    private CreditQueues() {}
}
