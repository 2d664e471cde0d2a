package org.exactlyonce.internal.outage;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timeout;
import jakarta.ejb.Timer;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.internal.broker.MessageEndpoints;

/**
 * What the consumers do while the database is down. A consumer whose attempts failed past the retries
 * asks for a probe ({@link #answersNow}); when it fails too, the database is down: the consumer reports
 * it here and holds its delivery, so the message burns no delivery, and other deliveries hold before
 * they try. This bean probes the database until it answers again, then releases the held deliveries,
 * which retry. An outage longer than a consumer's hold makes it hand its message back to
 * the broker; then its message endpoint is paused, so that the broker keeps the messages instead of
 * handing them to consumers that would only fail them, and resumed when the database is back.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DatabaseOutage {

    private static final Logger LOG = Logger.getLogger(DatabaseOutage.class.getName());

    private static final String PROBE = "exactly-once database probe";

    @Resource
    TimerService timers;

    @Inject
    MessageEndpoints endpoints;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource database;

    /** Time between two probes of a database that is down. */
    @Inject
    @ConfigProperty(name = "exactlyonce.outage.probe-interval", defaultValue = "PT2S")
    Duration probeInterval;

    @Inject
    DatabaseStatus status;

    /** The state the deliveries read through {@link DatabaseStatus}; never a proxy (see {@link OutageState}). */
    private OutageState state;

    @PostConstruct
    void shareTheDeliveriesState() {
        state = status.outage();
    }

    /** What is unusable in the outage's settings; empty when they can be used. */
    public List<String> problems() {
        return probeInterval.toMillis() < 1 // a timer counts whole milliseconds
                ? List.of("exactlyonce.outage.probe-interval must be at least 1 ms, is " + probeInterval)
                : List.of();
    }

    /**
     * Whether the database answers a probe, which writes, right now. A failure that outlasted the retries while it
     * does is the message's own (a deadlock or a timeout that recurs for it alone), not an outage.
     */
    public boolean answersNow() {
        return WriteProbe.takesWrites(database);
    }

    /** Records that the database is down, as a probe confirmed; starts the probing unless it runs already. */
    public void reportDown() {
        if (state.down()) {
            LOG.warning(
                    () -> "exactly-once: the database is unavailable; consumers hold their deliveries, probing every "
                            + probeInterval);
            timers.createIntervalTimer(0, probeInterval.toMillis(), new TimerConfig(PROBE, false));
        }
    }

    /**
     * Waits until the database is back, at most as long as given.
     *
     * @return whether it is back
     */
    public boolean awaitBack(Duration atMost) throws InterruptedException {
        return state.awaitBack(atMost);
    }

    /**
     * Records that a consumer hands its message back because the outage outlasted its hold: its endpoint
     * is paused until the database is back. Pausing waits for the deliveries in progress, so it runs on
     * a timer's thread of its own.
     */
    public void handingBack(String consumerBean) {
        endpoints
                .endpointOf(consumerBean)
                .filter(state::claimForPause)
                .ifPresent(endpoint -> timers.createSingleActionTimer(0, new TimerConfig(endpoint, false)));
    }

    /** Since when the database is down, as the consumers found it; empty while it is up. */
    public Optional<Instant> downSince() {
        return state.downSince();
    }

    @Timeout
    void onTimer(Timer timer) {
        if (PROBE.equals(timer.getInfo())) {
            probe(timer);
        } else {
            pause((String) timer.getInfo());
        }
    }

    private void probe(Timer timer) {
        if (!answersNow()) {
            LOG.fine("exactly-once: the database is still unavailable");
            return;
        }
        timer.cancel();
        back();
    }

    private void pause(String endpoint) {
        try {
            endpoints.pause(endpoint);
        } catch (JMException | RuntimeException e) {
            state.pauseEnded(endpoint, false);
            LOG.warning(() -> "exactly-once: could not pause message endpoint " + endpoint + ": " + e);
            return;
        }
        boolean backMeanwhile = state.pauseEnded(endpoint, true);
        LOG.warning(() -> "exactly-once: paused message endpoint " + endpoint + " while the database is down");
        if (backMeanwhile) {
            resume(endpoint);
        }
    }

    private void back() {
        OutageState.Recovery recovery = state.back();
        LOG.warning(() ->
                "exactly-once: the database is back after " + recovery.outage().toMillis() + " ms");
        recovery.toResume().forEach(this::resume);
    }

    private void resume(String endpoint) {
        try {
            endpoints.resume(endpoint);
            LOG.warning(() -> "exactly-once: resumed message endpoint " + endpoint);
        } catch (JMException e) {
            LOG.severe(() -> "exactly-once: could not resume message endpoint " + endpoint
                    + "; resume it with `server resume --target=" + endpoint + "`: " + e);
        }
    }
}
