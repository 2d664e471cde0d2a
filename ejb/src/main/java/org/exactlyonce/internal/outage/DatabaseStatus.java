package org.exactlyonce.internal.outage;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;

/**
 * Whether the database is down, as {@link DatabaseOutage}'s probe confirmed, for every delivery to read
 * before it tries: a field's read on a CDI bean, not a call on the enterprise bean, whose container
 * call is dear on every message.
 */
@ApplicationScoped
public class DatabaseStatus {

    private final OutageState outage = new OutageState(Clock.systemUTC());

    /** Whether the database is down: deliveries then hold before they try. */
    public boolean databaseDown() {
        return outage.isDown();
    }

    /** The outage's state itself, for {@link DatabaseOutage} to act on (public, so that the CDI proxy hands the call on). */
    public OutageState outage() {
        return outage;
    }
}
