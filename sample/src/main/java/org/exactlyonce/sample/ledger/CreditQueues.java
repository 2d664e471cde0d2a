package org.exactlyonce.sample.ledger;

/** JNDI names of the sample's messaging resources, defined in the server configuration. */
public final class CreditQueues {

    public static final String CONNECTION_FACTORY = "jms/ledger/ConnectionFactory";

    /** Credit orders, consumed by {@link LedgerConsumer}. */
    public static final String CREDITS = "jms/ledger/Credits";

    /** Credit orders for {@link ReceiptingLedgerConsumer}, which books each and sends a receipt. */
    public static final String CREDITS_WITH_RECEIPTS = "jms/ledger/CreditsWithReceipts";

    /** Receipts, sent through the outbox and filed by {@link ReceiptConsumer}. */
    public static final String RECEIPTS = "jms/ledger/Receipts";

    private CreditQueues() {}
}
