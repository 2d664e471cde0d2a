package org.exactlyonce.outage;

import static org.exactlyonce.Internal.Reason.ANOTHER_FEATURE;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.exactlyonce.Internal;
import org.exactlyonce.processed.SqlStates;

/**
 * Runs the engine's database work: an attempt that fails with a {@link TransientDatabaseFailure} is
 * retried with back-off under MicroProfile Fault Tolerance. What a failure that outlasts the retries
 * means — the database is down, or this message fails on its own — is for a probe to tell (see
 * {@link DatabaseOutage#answersNow}), not for a count of failures: a message that deadlocks on every
 * attempt must not make the database look down to every consumer.
 *
 * <p>The first attempt runs outside Fault Tolerance ({@link #once}), and only one that failed goes
 * through {@link #again}: every delivery makes an attempt, and the interceptor around each cost a
 * consumer 3 % of its server time on Open Liberty and 7 % on WildFly (Java Flight Recorder, 8
 * consumers). The retries' values can be overridden with MicroProfile Config in the way the Fault
 * Tolerance specification defines, e.g. {@code org.exactlyonce.outage.DatabaseCalls/again/Retry/maxRetries=5}.
 */
@Internal(ANOTHER_FEATURE)
@ApplicationScoped
public class DatabaseCalls {

    private final OutageState outage = new OutageState(Clock.systemUTC());

    /**
     * Whether the database is down, as {@link DatabaseOutage}'s probe confirmed: deliveries then hold
     * before they try. Read by every delivery, so a field's read, not an enterprise bean's call
     * (which took 9 % of the consumer's server time on Open Liberty).
     */
    public boolean databaseDown() {
        return outage.isDown();
    }

    /** The outage's state itself, for {@link DatabaseOutage} to act on (public, so that the CDI proxy hands the call on). */
    public OutageState outage() {
        return outage;
    }

    /**
     * Runs one attempt, its transient database failures told apart from the others. A caller hands a
     * failed attempt to {@link #again} itself, through the injected bean: a call to it from inside this
     * bean would pass no interceptor, and so no retries.
     *
     * @param attempt work that begins and ends its own transaction, so that it can run again
     * @throws TransientDatabaseFailure when it failed in a way that says nothing about the work: run it
     *     {@link #again}
     */
    public static <T> T once(Callable<T> attempt) throws Exception {
        try {
            return attempt.call();
        } catch (TransientDatabaseFailure e) {
            throw e;
        } catch (Exception e) {
            throw SqlStates.isTransient(e) ? new TransientDatabaseFailure(e) : e;
        }
    }

    /**
     * Runs an attempt that has failed transiently again: at once, then up to {@code maxRetries} more
     * times with back-off while it still fails transiently. With the first attempt, four in all.
     */
    @Retry(retryOn = TransientDatabaseFailure.class, maxRetries = 2, delay = 200, jitter = 100, maxDuration = 10_000)
    public <T> T again(Callable<T> attempt) throws Exception {
        return once(attempt);
    }
}
