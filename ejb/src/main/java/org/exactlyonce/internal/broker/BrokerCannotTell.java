package org.exactlyonce.internal.broker;

/**
 * The broker view cannot say whether messages are still on a queue: every ID in question is kept. When
 * the view knows that messages wait where it cannot list them ({@link #messagesWait}), not even the
 * fallback by age may confirm them.
 */
public class BrokerCannotTell extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean messagesKnownToWait;

    public BrokerCannotTell(String reason) {
        this(reason, null, false);
    }

    public BrokerCannotTell(String reason, Throwable cause) {
        this(reason, cause, false);
    }

    private BrokerCannotTell(String reason, Throwable cause, boolean messagesKnownToWait) {
        super(reason, cause);
        this.messagesKnownToWait = messagesKnownToWait;
    }

    /** The view sees messages waiting that it cannot list, or was told to look where it cannot. */
    public static BrokerCannotTell messagesWait(String reason) {
        return new BrokerCannotTell(reason, null, true);
    }

    /** Whether an ID's age may stand in for the broker's word: not when messages are known to wait. */
    public boolean allowsConfirmationByAge() {
        return !messagesKnownToWait;
    }
}
