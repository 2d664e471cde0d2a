package org.exactlyonce.purge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** How the purge of processed IDs runs: MicroProfile Config keys under {@code exactlyonce.purge}. */
@ApplicationScoped
public class PurgeSettings {

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

    /** What is unsafe or unusable in these settings; empty when they can be used. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (interval.isNegative() || interval.isZero()) {
            problems.add("exactlyonce.purge.interval must be positive, is " + interval);
        }
        if (dedupWindow.isNegative()) {
            problems.add("exactlyonce.purge.dedup-window must not be negative, is " + dedupWindow);
        }
        if (gracePeriod.isNegative()) {
            problems.add("exactlyonce.purge.grace-period must not be negative, is " + gracePeriod);
        }
        if (batchSize < 1) {
            problems.add("exactlyonce.purge.batch-size must be at least 1, is " + batchSize);
        }
        return problems;
    }
}
