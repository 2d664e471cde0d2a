package org.exactlyonce.harness;

/** JNDI names of the harness's messaging resources, beside the sample's, defined in the server configuration. */
final class TestQueues {

    /** Credit orders for {@link AtLeastOnceConsumer}, the baseline without a processed-ID table. */
    static final String AT_LEAST_ONCE_CREDITS = "jms/ledger/CreditsAtLeastOnce";

    /** The exception destination of the sample's credits queue: messages the broker gave up on. */
    static final String FAILED_CREDITS = "jms/ledger/FailedCredits";

    /** Credit events, a topic: each {@link CreditSubscriber} books every one. */
    static final String CREDIT_EVENTS = "jms/ledger/CreditEvents";

    /** Credit orders for {@link BatchedLedger}, the batched receiver. */
    static final String BATCHED_CREDITS = "jms/ledger/CreditsBatched";

    /**
     * The batched receiver's connection factory: one whose sessions can be transacted outside JTA (on
     * WildFly a plain connection factory, not the pooled one of the sample).
     */
    static final String BATCHED_CONNECTION_FACTORY = "jms/test/BatchedConnectionFactory";

    private TestQueues() {}
}
