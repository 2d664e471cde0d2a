package org.exactlyonce.internal.consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.sql.SQLException;
import java.time.Clock;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The consumers deployed on this server, known from their first bean instance, and the destination
 * each reads, checked against the database at its first delivery since the server started: a name
 * recorded for another destination is refused ({@link ConsumerNameClash}). A consumer that was
 * renamed adopts what its previous names hold then, and at each purge run after, which takes over the
 * IDs a server still running an old name records during a rolling release.
 */
@ApplicationScoped
public class LocalConsumers {

    private static final Logger LOG = Logger.getLogger(LocalConsumers.class.getName());

    @Inject
    ConsumerDestinations destinations;

    private final Clock clock = Clock.systemUTC();
    private final Map<String, Subscriber> subscribers = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> previousNames = new ConcurrentHashMap<>();
    private final Set<String> foreignPreviousNamesReported = ConcurrentHashMap.newKeySet();
    private final Map<String, ConsumerDestination> verified = new ConcurrentHashMap<>();
    private final Set<String> clashesReported = ConcurrentHashMap.newKeySet();

    /**
     * A consumer deployed here, how it subscribes when it reads a topic, and the names it had before,
     * whose IDs it adopts. One name on two subscriptions of a topic is refused: each subscription
     * receives every message, and under one name the second would drop as duplicates what the first
     * processed. Two subscriptions here are told apart by what the beans and receivers declare (a
     * subscription set only in the server's configuration is not seen), and two non-durable ones by
     * the reader that declares them.
     *
     * @param reader the bean class or the batched receiver reading under the name
     * @throws IllegalStateException when another reader here gave the name to another subscription
     */
    public void deployed(String consumer, String reader, String subscription, Set<String> previous) {
        Subscriber subscriber = new Subscriber(reader, subscription);
        subscribers.compute(consumer, (name, earlier) -> {
            if (earlier != null && earlier.isAnotherSubscriptionThan(subscriber)) {
                throw new IllegalStateException("exactly-once consumer name " + consumer + " is given to two"
                        + " subscriptions: " + earlier + ", and " + subscriber + ". Each receives every message"
                        + " of the topic, and under one name one would drop what the other processed: give each"
                        + " its own name");
            }
            return subscriber;
        });
        Set<String> others = new HashSet<>(previous);
        others.remove(consumer);
        previousNames.put(consumer, Set.copyOf(others));
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
        adoptPreviousNames(recorded);
        verified.put(consumer, recorded);
    }

    /** Has each consumer deployed here, whose destination is recorded, adopt what its previous names hold. */
    public void adoptPreviousNames() {
        previousNames.keySet().forEach(consumer -> destinationOf(consumer).ifPresent(this::adoptPreviousNames));
    }

    /**
     * Has the consumer adopt what its previous names hold. A failure is logged and left to the next
     * purge run: the IDs stay where they are, and still count for whoever runs the previous name.
     */
    private void adoptPreviousNames(ConsumerDestination consumer) {
        for (String previous : previousNames.getOrDefault(consumer.consumer(), Set.of())) {
            try {
                destinations.adopt(previous, consumer).ifPresentOrElse(ConsumerRows.Adoption::report, () -> {
                    if (foreignPreviousNamesReported.add(consumer.consumer() + "\n" + previous)) {
                        ConsumerRows.reportForeign(consumer, previous);
                    }
                });
            } catch (SQLException | RuntimeException e) {
                LOG.warning(() -> consumer.consumer() + " could not adopt the IDs of its previous name '" + previous
                        + "'; the next purge run tries again: " + e);
            }
        }
    }

    /** The names of the consumers deployed here. */
    public Set<String> names() {
        return Set.copyOf(subscribers.keySet());
    }

    /**
     * How a topic consumer deployed here subscribes, as its bean declares it or its batched receiver
     * was built; empty for a queue's
     * consumer and for one deployed on another server.
     */
    public Optional<String> subscriptionOf(ConsumerDestination recorded) {
        return recorded.kind() == ConsumerDestination.Kind.TOPIC
                ? Optional.ofNullable(subscribers.get(recorded.consumer())).map(Subscriber::subscription)
                : Optional.empty();
    }

    /** The destination recorded for a consumer; empty before its first delivery anywhere. */
    public Optional<ConsumerDestination> destinationOf(String consumer) {
        return Optional.ofNullable(verified.get(consumer)).or(() -> destinations.find(consumer));
    }

    /** Who reads under a consumer name here, and how it subscribes ({@link DeclaredSubscription}). */
    private record Subscriber(String reader, String subscription) {

        boolean isAnotherSubscriptionThan(Subscriber other) {
            if (!declared() || !other.declared()) {
                return false; // a queue's reader, or a subscription the server's configuration sets
            }
            return !subscription.equals(other.subscription)
                    || (subscription.equals(DeclaredSubscription.NON_DURABLE) && !reader.equals(other.reader));
        }

        private boolean declared() {
            return !subscription.isEmpty() && !subscription.equals(DeclaredSubscription.UNDECLARED);
        }

        @Override
        public String toString() {
            return subscription + " of " + reader;
        }
    }
}
