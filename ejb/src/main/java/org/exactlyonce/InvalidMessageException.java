package org.exactlyonce;

/**
 * A message that can never be processed as it is, however often it is delivered. Thrown from
 * {@code process}, it parks the message at once (reason {@link ParkReason#INVALID_PAYLOAD}) instead
 * of having it redelivered; its message says why, for the operator who finds it.
 */
public class InvalidMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ParkReason reason;

    /** A payload the consumer rejects: the message is parked as {@link ParkReason#INVALID_PAYLOAD}. */
    public InvalidMessageException(String why) {
        this(ParkReason.INVALID_PAYLOAD, why);
    }

    public InvalidMessageException(String why, Throwable cause) {
        this(ParkReason.INVALID_PAYLOAD, why);
        initCause(cause);
    }

    /** For the engine's own reasons, which it finds before {@code process} runs (a missing ID, say). */
    protected InvalidMessageException(ParkReason reason, String why) {
        super(why);
        this.reason = reason;
    }

    public ParkReason reason() {
        return reason;
    }
}
