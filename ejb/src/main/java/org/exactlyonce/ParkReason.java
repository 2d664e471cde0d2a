package org.exactlyonce;

/** Why a message was parked instead of processed, and what an operator does about it. */
public enum ParkReason {
    /** The producer set no message ID: fix the producer, then replay. */
    MISSING_ID,
    /** The message ID is empty: fix the producer, then replay. */
    EMPTY_ID,
    /** The message ID is longer than the processed-ID table holds (200 characters): fix the producer. */
    ID_TOO_LONG,
    /** The message ID holds a NUL character or a lone surrogate, which no database keeps as text: fix the producer. */
    MALFORMED_ID,
    /** The consumer does not accept this type of message (see {@code accepts}): route it elsewhere, or discard. */
    TYPE_NOT_ACCEPTED,
    /** The consumer rejected the payload as invalid ({@code InvalidMessageException}): fix it at the source, or discard. */
    INVALID_PAYLOAD,
    /** Processing failed on every delivery up to the limit: fix the cause, then replay. */
    KEEPS_FAILING,
    /**
     * Its ID was processed before with another payload: a different message reusing the ID. Replaying
     * it is refused while the ID is known; have the producer send it again with an ID of its own.
     */
    ID_REUSED,
    /**
     * The server crashed while it processed the message, as many times as {@code
     * exactlyonce.crash-guard.crashes-before-parking} allows (an {@code OutOfMemoryError} that halted the
     * JVM, a native crash, a {@code System.exit}): find the cause in the server's crash logs, then replay.
     */
    CRASHES_THE_SERVER
}
