package org.exactlyonce.consume;

/**
 * A delivery that ends without an acknowledgement: its transaction rolled back and the broker is to
 * redeliver the message. Its message says why, naming the consumer and the message.
 */
final class HandBack extends Exception {

    private static final long serialVersionUID = 1L;

    HandBack(String why, Throwable cause) {
        super(why, cause);
    }
}
