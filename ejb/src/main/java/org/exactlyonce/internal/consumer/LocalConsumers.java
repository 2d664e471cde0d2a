package org.exactlyonce.internal.consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The consumers deployed on this server, known from their first bean instance, and the destination
 * each reads, checked against the database at its first delivery since the server started: a name
 * recorded for another destination is refused ({@link ConsumerNameClash}).
 */
@ApplicationScoped
public class LocalConsumers {

    private static final Logger LOG = Logger.getLogger(LocalConsumers.class.getName());

    @Inject
    ConsumerDestinations destinations;

    private final Clock clock = Clock.systemUTC();
    private final Map<String, String> subscriptions = new ConcurrentHashMap<>();
    private final Map<String, ConsumerDestination> verified = new ConcurrentHashMap<>();
    private final Set<String> clashesReported = ConcurrentHashMap.newKeySet();

    /** A consumer deployed here, and how it subscribes when it reads a topic. */
    public void deployed(String consumer, String subscription) {
        subscriptions.put(consumer, subscription);
    }

    /**
     * Checks that the consumer reads the destination recorded for its name, recording it at the first
     * delivery; once per server start, after that a look at a map.
     *
     * @throws ConsumerNameClash when the name is recorded for another destination
     */
    public void verify(String consumer, Message message) throws JMSException, SQLException {
        Destination destination = message.getJMSDestination();
        ConsumerDestination known = verified.get(consumer);
        if (destination == null || known != null && known.isSameDestinationAs(destination)) {
            return; // a provider that names no destination teaches nothing
        }
        ConsumerDestination delivered = ConsumerDestination.of(consumer, destination, clock.instant());
        ConsumerDestination recorded = destinations
                .register(delivered)
                .or(() -> destinations.find(consumer))
                .orElseThrow();
        if (!recorded.isSameDestinationAs(destination)) {
            ConsumerNameClash clash = new ConsumerNameClash(recorded, delivered);
            if (clashesReported.add(consumer + "\n" + delivered)) {
                LOG.severe(clash::getMessage);
            }
            throw clash;
        }
        verified.put(consumer, recorded);
    }

    /** The names of the consumers deployed here. */
    public Set<String> names() {
        return Set.copyOf(subscriptions.keySet());
    }

    /**
     * How a topic consumer deployed here subscribes, as its bean declares it or its batched receiver
     * was built; empty for a queue's
     * consumer and for one deployed on another server.
     */
    public Optional<String> subscriptionOf(ConsumerDestination recorded) {
        return recorded.kind() == ConsumerDestination.Kind.TOPIC
                ? Optional.ofNullable(subscriptions.get(recorded.consumer()))
                : Optional.empty();
    }

    /** The destination recorded for a consumer; empty before its first delivery anywhere. */
    public Optional<ConsumerDestination> destinationOf(String consumer) {
        return Optional.ofNullable(verified.get(consumer)).or(() -> destinations.find(consumer));
    }
}
