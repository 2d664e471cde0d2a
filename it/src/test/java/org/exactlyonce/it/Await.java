package org.exactlyonce.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting for asynchronous outcomes: messages are processed after the request that sent them returns. */
final class Await {

    private Await() {}

    /** Polls until the condition holds; fails with the description when the time is up. */
    static void until(String description, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + description);
            }
            pause(Duration.ofMillis(200));
        }
    }

    /** Polls until the value equals the expected one; fails showing the last value seen. */
    static <T> void untilEquals(String description, T expected, Duration timeout, Supplier<T> value) {
        Object[] last = new Object[1];
        try {
            until(description, timeout, () -> expected.equals(last[0] = value.get()));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": expected " + expected + ", last saw " + last[0], e);
        }
    }

    /**
     * Gives stray redeliveries time to show up before a test asserts that nothing more happened: a
     * duplicate effect would arrive after the first one, not before.
     */
    static void settle() {
        pause(Duration.ofSeconds(2));
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
