package org.exactlyonce.internal.delivery;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.exactlyonce.internal.outage.TransientDatabaseFailure;
import org.exactlyonce.internal.processed.SqlStates;

/**
 * The one retry policy of a delivery's database work, for the message-driven bean and the batched
 * receiver alike. An attempt that fails transiently (a lost connection, a deadlock: {@link
 * SqlStates#isTransient}) runs again after a growing pause; once {@code
 * exactlyonce.database.attempts} attempts have failed, a probe tells whose failure it is. The database answers: the failure is the
 * message's own ({@link FailsOnItsOwn}), which goes the way of any failing message and never makes
 * the database count as down. It does not answer: the delivery waits for it as the {@link
 * DatabaseHold} says, and tries again once it is back.
 */
public final class DatabaseRetry {

    private static final Duration FIRST_PAUSE = Duration.ofMillis(100);

    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private final int attempts;

    private final DatabaseHold hold;

    /** @param attempts failed attempts before the probe; at least 1 */
    public DatabaseRetry(int attempts, DatabaseHold hold) {
        this.attempts = attempts;
        this.hold = hold;
    }

    /**
     * Runs the attempt until it succeeds or fails for a reason of its own.
     *
     * @param attempt work that begins and ends its own transaction, so that it can run again
     * @throws FailsOnItsOwn when every attempt failed transiently while the database answers
     * @throws TransientDatabaseFailure when the database stayed down for longer than the hold allows
     * @throws InterruptedException when the thread was interrupted while it waited for the database
     */
    public <T> T call(Attempt<T> attempt) throws Exception {
        int failed = 0;
        Duration pause = FIRST_PAUSE;
        while (true) {
            if (hold.knownDown() && !hold.awaitBack()) { // no attempt against a database known to be down
                throw new TransientDatabaseFailure("the database stayed down for longer than the delivery holds");
            }
            try {
                return attempt.run();
            } catch (Exception e) {
                if (!isTransient(e)) {
                    throw e;
                }
                if (++failed < attempts) {
                    pause(pause);
                    pause = longer(pause);
                    continue;
                }
                if (hold.answersNow()) {
                    throw new FailsOnItsOwn(e);
                }
                if (!hold.awaitBack()) {
                    throw e instanceof TransientDatabaseFailure held ? held : new TransientDatabaseFailure(e);
                }
                failed = 0;
                pause = FIRST_PAUSE;
            }
        }
    }

    private static boolean isTransient(Exception e) {
        return e instanceof TransientDatabaseFailure || SqlStates.isTransient(e);
    }

    /** A pause with up to half of it again at random, so that two deadlocked deliveries do not meet again. */
    private static void pause(Duration pause) throws InterruptedException {
        long millis = pause.toMillis();
        Thread.sleep(millis + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
    }

    public static Duration longer(Duration pause) {
        return longer(pause, LONGEST_PAUSE);
    }

    /** The pause doubled, up to the longest. */
    public static Duration longer(Duration pause, Duration longest) {
        Duration doubled = pause.multipliedBy(2);
        return doubled.compareTo(longest) > 0 ? longest : doubled;
    }

    /** One attempt at the work. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws Exception;
    }
}
