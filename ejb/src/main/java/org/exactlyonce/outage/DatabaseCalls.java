package org.exactlyonce.outage;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.exactlyonce.processed.SqlStates;

/**
 * Runs the engine's database work under MicroProfile Fault Tolerance: an attempt that fails with a
 * {@link TransientDatabaseFailure} is retried with back-off. What a failure that outlasts the retries
 * means — the database is down, or this message fails on its own — is for a probe to tell (see
 * {@link DatabaseOutage#answersNow}), not for a count of failures: a message that deadlocks on every
 * attempt must not make the database look down to every consumer.
 *
 * <p>The values below can be overridden with MicroProfile Config in the way the Fault Tolerance
 * specification defines, e.g. {@code org.exactlyonce.outage.DatabaseCalls/call/Retry/maxRetries=5}.
 */
@ApplicationScoped
public class DatabaseCalls {

    /**
     * Runs one attempt, again while it fails transiently.
     *
     * @param attempt work that begins and ends its own transaction, so that it can run again
     */
    @Retry(retryOn = TransientDatabaseFailure.class, maxRetries = 3, delay = 200, jitter = 100, maxDuration = 10_000)
    public <T> T call(Callable<T> attempt) throws Exception {
        try {
            return attempt.call();
        } catch (TransientDatabaseFailure e) {
            throw e;
        } catch (Exception e) {
            throw SqlStates.isTransient(e) ? new TransientDatabaseFailure(e) : e;
        }
    }
}
