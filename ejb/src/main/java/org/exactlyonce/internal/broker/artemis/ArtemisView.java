package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.json.JsonException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.artemis.ArtemisControl.Listing;

/**
 * An ActiveMQ Artemis broker: the one inside WildFly, seen through its management beans, or a broker of
 * its own, seen through management messages. A queue's look is one {@link ArtemisLook}: its delivering
 * and scheduled messages before and after a browse of the available ones, then the messages from it on
 * its dead-letter address, which an operator can move back. A topic's look takes every subscription of
 * it the same way.
 */
public final class ArtemisView implements BrokerView {

    /** The most available messages Artemis 2.44 lists of a queue (its default management page size). */
    static final int LISTING_CAP = 200;

    private static final Logger LOG = Logger.getLogger(ArtemisView.class.getName());
    private static final Duration ASK_AGAIN_AFTER = Duration.ofMinutes(1);

    /** The property in which Artemis keeps a dead-lettered message's address before. */
    private static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";

    private final ArtemisControl control;
    private final String queuePrefix;
    private final String topicPrefix;
    private final ApplicationIds applicationIds;
    private final BrokerConnections connections;
    private volatile String nodeId;
    private volatile long nextAskAllowed = System.nanoTime();

    private ArtemisView(
            ArtemisControl control,
            String queuePrefix,
            String topicPrefix,
            ApplicationIds applicationIds,
            BrokerConnections connections) {
        this.control = control;
        this.queuePrefix = queuePrefix;
        this.topicPrefix = topicPrefix;
        this.applicationIds = applicationIds;
        this.connections = connections;
    }

    /** WildFly's Artemis, whose addresses carry the JMS prefixes {@code jms.queue.} and {@code jms.topic.}. */
    public static ArtemisView insideWildFly(ApplicationIds applicationIds, BrokerConnections connections) {
        return new ArtemisView(new JmxArtemisControl(), "jms.queue.", "jms.topic.", applicationIds, connections);
    }

    /** A broker of its own, reached through the engine's connection factory; its addresses are the JMS names. */
    public static ArtemisView standalone(ApplicationIds applicationIds, BrokerConnections connections) {
        return new ArtemisView(new ManagementMessages(connections), "", "", applicationIds, connections);
    }

    /**
     * The consumers read this one broker. Until it has told its node ID, a delivery asks at most once a
     * minute, so that a broker that does not answer management requests slows no delivery down; the IDs
     * processed meanwhile record no broker, and the purge reports and keeps them.
     */
    @Override
    public Optional<String> brokerOf(Message message) {
        if (nodeId == null && System.nanoTime() < nextAskAllowed) {
            return Optional.empty();
        }
        try {
            return Optional.of(broker());
        } catch (BrokerCannotTell e) {
            nextAskAllowed = System.nanoTime() + ASK_AGAIN_AFTER.toNanos();
            LOG.warning(() ->
                    "exactly-once: processed IDs record no broker until Artemis tells its node ID: " + e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public String broker() throws BrokerCannotTell {
        String known = nodeId;
        if (known == null) {
            known = control.nodeId();
            nodeId = known;
        }
        return known;
    }

    @Override
    public Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell {
        String address = queuePrefix + queue;
        String coreQueue = control.queuesOf(address).stream()
                .filter(address::equals)
                .findFirst()
                .orElseThrow(() -> new BrokerCannotTell("Artemis has no queue " + address));
        ArtemisLook look = new ArtemisLook(applicationIds::usableIdOf);
        try {
            addDeliveringAndScheduled(coreQueue, look);
            connections.browse(queue, message -> addBrowsed(message, look));
            addDeliveringAndScheduled(coreQueue, look); // again: a message delivered during the browse
            lookAtDeadLetters(control.deadLetterAddress(coreQueue).map(Set::of).orElse(Set.of()), address, look);
            return look.pending(candidates);
        } catch (JMSException | JsonException e) {
            throw new BrokerCannotTell("Artemis could not show queue " + queue + ": " + e, e);
        }
    }

    /**
     * Every subscription of the topic counts: each is a queue bound to the topic's address. A subscription
     * cannot be browsed, and Artemis lists at most {@value #LISTING_CAP} of its available messages, so one
     * that holds as many is not looked at, and its IDs are kept.
     */
    @Override
    public Set<String> stillOnTopic(String topic, Collection<Candidate> candidates) throws BrokerCannotTell {
        String address = topic.startsWith(topicPrefix) ? topic : topicPrefix + topic;
        ArtemisLook look = new ArtemisLook(applicationIds::usableIdOf);
        Set<String> deadLetterAddresses = new TreeSet<>();
        try {
            for (String subscription : control.queuesOf(address)) {
                lookAtSubscription(subscription, look);
                control.deadLetterAddress(subscription).ifPresent(deadLetterAddresses::add);
            }
            lookAtDeadLetters(deadLetterAddresses, address, look); // after: a message dead-lettered meanwhile
            return look.pending(candidates);
        } catch (JMSException | JsonException e) {
            throw new BrokerCannotTell("Artemis could not show the subscriptions of " + address + ": " + e, e);
        }
    }

    /**
     * The subscription's messages, when Artemis can list them all: it holds fewer than the cap before
     * and after the listing (newer messages of a higher priority could push an older one past the cap).
     */
    private void lookAtSubscription(String subscription, ArtemisLook look) throws BrokerCannotTell {
        if (heldWithinTheCap(subscription) == 0) {
            return;
        }
        addDeliveringAndScheduled(subscription, look);
        look.addListing(control.listing(subscription, Listing.AVAILABLE));
        addDeliveringAndScheduled(subscription, look);
        heldWithinTheCap(subscription);
    }

    private long heldWithinTheCap(String subscription) throws BrokerCannotTell {
        long held = control.messageCount(subscription);
        if (held >= LISTING_CAP) {
            throw BrokerCannotTell.messagesWait("subscription " + subscription + " holds " + held
                    + " messages, more than Artemis lists (" + (LISTING_CAP - 1) + " at most here)");
        }
        return held;
    }

    private void addDeliveringAndScheduled(String queue, ArtemisLook look) throws BrokerCannotTell {
        look.addListing(control.listing(queue, Listing.DELIVERING));
        look.addListing(control.listing(queue, Listing.SCHEDULED));
    }

    /**
     * The dead-lettered messages that came from the address: Artemis names a message's address before it
     * was dead-lettered; one that does not say is counted too, which only keeps an ID longer.
     */
    private void lookAtDeadLetters(Set<String> deadLetterAddresses, String from, ArtemisLook look)
            throws BrokerCannotTell, JMSException {
        for (String deadLetters : deadLetterAddresses) {
            if (!deadLetters.startsWith(queuePrefix)
                    || control.queuesOf(deadLetters).isEmpty()) {
                continue; // no JMS queue there, so no message either
            }
            connections.browse(deadLetters.substring(queuePrefix.length()), message -> {
                String origin = message.getStringProperty(ORIGINAL_ADDRESS);
                if (origin == null || origin.equals(from)) {
                    addBrowsed(message, look);
                }
            });
        }
    }

    private void addBrowsed(Message message, ArtemisLook look) throws JMSException {
        look.addBrowsed(applicationIds.usableIdOf(message).orElse(null), message.getJMSMessageID());
    }
}
