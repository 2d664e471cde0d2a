package org.exactlyonce.consume;

/**
 * A message that can never be processed as it is, whatever the number of attempts: its ID is missing
 * or unusable. Its message says why, for the operator who finds it.
 */
public class InvalidMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidMessageException(String reason) {
        super(reason);
    }
}
