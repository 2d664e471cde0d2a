package org.exactlyonce.internal.delivery;

/**
 * A delivery that ends without an acknowledgement: its transaction rolled back and the broker is to
 * redeliver the message. Its message says why, naming the consumer and the message.
 */
public final class HandBack extends Exception {

    private static final long serialVersionUID = 1L;

    public HandBack(String why, Throwable cause) {
        super(why, cause);
    }
}
