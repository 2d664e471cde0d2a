package org.exactlyonce.internal.delivery;

/**
 * A message whose processing failed on every attempt of a delivery with what looks like a transient
 * database failure (a deadlock, a timeout), while the database answers a probe: the failure is the
 * message's own. It goes the way of any failing message — redelivered, parked after the limit — and
 * never makes the database count as down.
 */
public final class FailsOnItsOwn extends Exception {

    private static final long serialVersionUID = 1L;

    public FailsOnItsOwn(Throwable cause) {
        super(
                "every attempt failed as if the database were unavailable, while it answers: " + cause.getMessage(),
                cause);
    }
}
