package org.exactlyonce.broker;

/** The broker view cannot say whether messages are still on a queue: every ID in question is kept. */
public class BrokerCannotTell extends Exception {

    private static final long serialVersionUID = 1L;

    public BrokerCannotTell(String reason) {
        super(reason);
    }

    public BrokerCannotTell(String reason, Throwable cause) {
        super(reason, cause);
    }
}
