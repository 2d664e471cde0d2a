package org.exactlyonce.internal.purge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How the purge of processed IDs runs: MicroProfile Config keys under {@code exactlyonce.purge}. */
@ApplicationScoped
class PurgeSettings {

    /** Time between two purge runs. */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.interval", defaultValue = "PT1M")
    Duration interval;

    /**
     * How long an acknowledged ID is kept, to drop a producer's re-sends as well as broker redeliveries;
     * zero deletes it as soon as its acknowledgement is confirmed.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.dedup-window", defaultValue = "PT1H")
    Duration dedupWindow;

    /** How old a processed ID must be before the broker is asked about it: a margin over commit-to-acknowledge. */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.grace-period", defaultValue = "PT30S")
    Duration gracePeriod;

    /** IDs per transaction, and per broker query. */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.batch-size", defaultValue = "200")
    int batchSize;

    /**
     * When set, the age past which an ID that no broker view can be asked about (another broker's, a
     * broker that does not answer) is taken as acknowledged. Unset by default:
     * such IDs are kept until a view confirms them.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.confirm-by-age")
    Optional<Duration> confirmByAge;

    /**
     * The shortest {@code confirm-by-age} accepted: a message can wait on a broker for hours (a backlog,
     * a paused consumer, a dead letter an operator moves back), and one redelivered after its ID went is
     * processed twice.
     */
    static final Duration SHORTEST_CONFIRM_BY_AGE = Duration.ofDays(1);

    public Duration interval() {
        return interval;
    }

    public Duration dedupWindow() {
        return dedupWindow;
    }

    public Duration gracePeriod() {
        return gracePeriod;
    }

    public int batchSize() {
        return batchSize;
    }

    public Optional<Duration> confirmByAge() {
        return confirmByAge;
    }

    /** What is unsafe or unusable in these settings; empty when they can be used. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (interval.toMillis() < 1) { // a timer counts whole milliseconds
            problems.add("exactlyonce.purge.interval must be at least 1 ms, is " + interval);
        }
        if (dedupWindow.isNegative()) {
            problems.add("exactlyonce.purge.dedup-window must not be negative, is " + dedupWindow);
        }
        if (gracePeriod.isNegative()) {
            problems.add("exactlyonce.purge.grace-period must not be negative, is " + gracePeriod);
        }
        confirmByAge
                .filter(age -> age.compareTo(SHORTEST_CONFIRM_BY_AGE) < 0)
                .ifPresent(age -> problems.add("exactlyonce.purge.confirm-by-age must be at least "
                        + SHORTEST_CONFIRM_BY_AGE + ", the time a message can wait on a broker, is " + age));
        if (batchSize < 1) {
            problems.add("exactlyonce.purge.batch-size must be at least 1, is " + batchSize);
        }
        return problems;
    }
}
