package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.json.JsonException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.artemis.ArtemisControl.Listing;
import org.exactlyonce.internal.broker.artemis.ArtemisNodes.Reached;

/**
 * An ActiveMQ Artemis broker: the one inside WildFly, seen through its management beans, or a broker of
 * its own, one node or a cluster, seen through management messages. Each node's management describes
 * only its own copy of a queue, so a look asks every node: on each, a queue's delivering and scheduled
 * messages before and after a browse of the available ones ({@link ArtemisLook}), the messages from it
 * on its dead-letter and expiry addresses, which an operator can move back, and those on their way to
 * another node in the node's store-and-forward queues. A topic's look takes every subscription of it the
 * same way. Messages move between nodes while the look goes on, so a cluster is asked twice, the second
 * time in the opposite order: a message that moves once during the look is seen by one of the passes.
 */
public final class ArtemisView implements BrokerView {

    /** The most available messages Artemis 2.44 lists of a queue (its default management page size). */
    static final int LISTING_CAP = 200;

    private static final Logger LOG = Logger.getLogger(ArtemisView.class.getName());
    private static final Duration ASK_AGAIN_AFTER = Duration.ofMinutes(1);

    /** The property in which Artemis keeps a dead-lettered or expired message's address before. */
    private static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";

    private final ArtemisNodes nodes;
    private final String queuePrefix;
    private final String topicPrefix;
    private final ApplicationIds applicationIds;
    private volatile String nodeId;
    private volatile long nextAskAllowed = System.nanoTime();

    ArtemisView(ArtemisNodes nodes, String queuePrefix, String topicPrefix, ApplicationIds applicationIds) {
        this.nodes = nodes;
        this.queuePrefix = queuePrefix;
        this.topicPrefix = topicPrefix;
        this.applicationIds = applicationIds;
    }

    /** WildFly's Artemis, whose addresses carry the JMS prefixes {@code jms.queue.} and {@code jms.topic.}. */
    public static ArtemisView insideWildFly(ApplicationIds applicationIds, BrokerConnections connections) {
        return new ArtemisView(
                new OneNodeInThisJvm(new JmxArtemisControl(connections)), "jms.queue.", "jms.topic.", applicationIds);
    }

    /**
     * A broker of its own, reached through the engine's connection factory; its addresses are the JMS names.
     *
     * @param clusterNodes how many nodes the broker has, as {@code exactlyonce.artemis.cluster-nodes} says
     */
    public static ArtemisView standalone(
            ApplicationIds applicationIds, BrokerConnections connections, int clusterNodes) {
        return new ArtemisView(new ArtemisCluster(connections, clusterNodes), "", "", applicationIds);
    }

    /**
     * The consumers read this broker, and an ID names it by a node of it: any node of a cluster names the
     * cluster, whichever node delivered the message, and a backup takes over its primary's node ID. Until
     * a node has told its ID, a delivery asks at most once a minute, so that a broker that does not answer
     * management requests slows no delivery down; the IDs processed meanwhile record no broker, and the
     * purge reports and keeps them.
     */
    @Override
    public Optional<String> brokerOf(Message message) {
        String known = nodeId;
        if (known != null) {
            return Optional.of(known);
        }
        if (System.nanoTime() < nextAskAllowed) {
            return Optional.empty();
        }
        try {
            known = nodes.anyNodeId();
            nodeId = known;
            return Optional.of(known);
        } catch (BrokerCannotTell e) {
            nextAskAllowed = System.nanoTime() + ASK_AGAIN_AFTER.toNanos();
            LOG.warning(() ->
                    "exactly-once: processed IDs record no broker until Artemis tells its node ID: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** Every node of the cluster: the look asks each, so it answers for the IDs any of them names. */
    @Override
    public Set<String> brokers() throws BrokerCannotTell {
        try (Reached reached = nodes.reachEvery()) {
            return Set.copyOf(reached.byNodeId().keySet());
        }
    }

    @Override
    public Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell {
        String address = queuePrefix + queue;
        try {
            return lookOnEveryNode(candidates, "Artemis has no queue " + address, (node, queueNames, look) -> {
                if (!queueNames.contains(address)) {
                    return false;
                }
                lookAtQueue(node, address, queue, look);
                return true;
            });
        } catch (JMSException | JsonException e) {
            throw new BrokerCannotTell("Artemis could not show queue " + queue + ": " + e, e);
        }
    }

    /**
     * Every subscription of the topic counts, on every node: each is a queue bound to the topic's
     * address. A subscription cannot be browsed, and Artemis lists at most {@value #LISTING_CAP} of its
     * available messages, so one that holds as many is not looked at, and its IDs are kept.
     */
    @Override
    public Set<String> stillOnTopic(String topic, Collection<Candidate> candidates) throws BrokerCannotTell {
        String address = topic.startsWith(topicPrefix) ? topic : topicPrefix + topic;
        try {
            return lookOnEveryNode(candidates, "Artemis has no address " + address, (node, queueNames, look) -> {
                if (!node.addressNames().contains(address)) {
                    return false;
                }
                lookAtTopic(node, address, look);
                return true;
            });
        } catch (JMSException | JsonException e) {
            throw new BrokerCannotTell("Artemis could not show the subscriptions of " + address + ": " + e, e);
        }
    }

    /** What a look does at its destination on one node. */
    @FunctionalInterface
    private interface AtTheDestination {

        /**
         * @param queueNames the node's queues, as the look read them once for the node
         * @return whether the node has the destination
         */
        boolean lookAt(ArtemisControl node, List<String> queueNames, ArtemisLook look)
                throws BrokerCannotTell, JMSException;
    }

    /**
     * One look: at the destination and at the store-and-forward queues of every node, a cluster's in two
     * passes.
     *
     * @throws BrokerCannotTell when no node has the destination ({@code missing} says so), or a node
     *     cannot be reached or asked
     */
    private Set<String> lookOnEveryNode(
            Collection<Candidate> candidates, String missing, AtTheDestination atTheDestination)
            throws BrokerCannotTell, JMSException {
        try (Reached reached = nodes.reachEvery()) {
            ArtemisLook look = new ArtemisLook(applicationIds::usableIdOf);
            boolean found = false;
            for (ArtemisControl node : inTwoPasses(reached)) {
                List<String> queueNames = node.queueNames();
                found |= atTheDestination.lookAt(node, queueNames, look);
                lookOnTheWay(node, queueNames, look);
            }
            if (!found) {
                throw new BrokerCannotTell(missing);
            }
            return look.pending(candidates);
        }
    }

    /** One node once; the nodes of a cluster in order, then in the opposite order. */
    private static List<ArtemisControl> inTwoPasses(Reached reached) {
        List<ArtemisControl> order = new ArrayList<>(reached.byNodeId().values());
        if (order.size() > 1) {
            List<ArtemisControl> back = new ArrayList<>(order);
            Collections.reverse(back);
            order.addAll(back);
        }
        return order;
    }

    private void lookAtQueue(ArtemisControl node, String address, String queue, ArtemisLook look)
            throws BrokerCannotTell, JMSException {
        addDeliveringAndScheduled(node, address, look);
        node.browse(queue, message -> addBrowsed(message, look));
        addDeliveringAndScheduled(node, address, look); // again: a message delivered during the browse
        lookAtDeadLetters(node, node.deadLetterAndExpiryAddresses(address), address, look);
    }

    private void lookAtTopic(ArtemisControl node, String address, ArtemisLook look)
            throws BrokerCannotTell, JMSException {
        Set<String> deadLetterAddresses = new TreeSet<>();
        for (String subscription : node.queuesOf(address)) {
            lookAtSubscription(node, subscription, look);
            deadLetterAddresses.addAll(node.deadLetterAndExpiryAddresses(subscription));
        }
        lookAtDeadLetters(node, deadLetterAddresses, address, look); // after: a message dead-lettered meanwhile
    }

    /**
     * The subscription's messages, when Artemis can list them all: it holds fewer than the cap before
     * and after the listing (newer messages of a higher priority could push an older one past the cap).
     */
    private void lookAtSubscription(ArtemisControl node, String subscription, ArtemisLook look)
            throws BrokerCannotTell {
        if (heldWithinTheCap(node, subscription) == 0) {
            return;
        }
        addDeliveringAndScheduled(node, subscription, look);
        look.addListing(node.listing(subscription, Listing.AVAILABLE));
        addDeliveringAndScheduled(node, subscription, look);
        heldWithinTheCap(node, subscription);
    }

    private static long heldWithinTheCap(ArtemisControl node, String subscription) throws BrokerCannotTell {
        long held = node.messageCount(subscription);
        if (held >= LISTING_CAP) {
            throw BrokerCannotTell.messagesWait("subscription " + subscription + " holds " + held
                    + " messages, more than Artemis lists (" + (LISTING_CAP - 1) + " at most here)");
        }
        return held;
    }

    private static void addDeliveringAndScheduled(ArtemisControl node, String queue, ArtemisLook look)
            throws BrokerCannotTell {
        look.addListing(node.listing(queue, Listing.DELIVERING));
        look.addListing(node.listing(queue, Listing.SCHEDULED));
    }

    /**
     * The dead-lettered and expired messages that came from the address: Artemis names a message's
     * address before; one that does not say is counted too, which only keeps an ID longer. A queue there
     * that the engine cannot browse by a JMS name must be empty, or the look cannot tell.
     */
    private void lookAtDeadLetters(ArtemisControl node, Set<String> addresses, String from, ArtemisLook look)
            throws BrokerCannotTell, JMSException {
        List<String> onTheNode = node.addressNames();
        for (String deadLetters : addresses) {
            if (!onTheNode.contains(deadLetters)) {
                continue; // no queue there, so no message either
            }
            for (String queue : node.queuesOf(deadLetters)) {
                if (!queue.startsWith(queuePrefix)) {
                    long held = node.messageCount(queue);
                    if (held > 0) {
                        throw BrokerCannotTell.messagesWait("queue " + queue + " of " + deadLetters + " holds " + held
                                + " messages, and has no JMS name (" + queuePrefix + "…) to browse it by");
                    }
                    continue;
                }
                node.browse(queue.substring(queuePrefix.length()), message -> {
                    String origin = message.getStringProperty(ORIGINAL_ADDRESS);
                    if (origin == null || origin.equals(from)) {
                        addBrowsed(message, look);
                    }
                });
            }
        }
    }

    /**
     * The messages the node holds on their way to another node of the cluster, or waiting for one that is
     * down: its store-and-forward queues, the bridge's deliveries and the available ones, as for a queue.
     * Whatever destination they are for, they count, which only keeps an ID longer.
     */
    private void lookOnTheWay(ArtemisControl node, List<String> queueNames, ArtemisLook look)
            throws BrokerCannotTell, JMSException {
        for (String queue : queueNames) {
            if (queue.startsWith(ArtemisControl.STORE_AND_FORWARD_PREFIX)) {
                look.addListing(node.listing(queue, Listing.DELIVERING));
                node.browse(queue, message -> addBrowsed(message, look));
                look.addListing(node.listing(queue, Listing.DELIVERING));
            }
        }
    }

    private void addBrowsed(Message message, ArtemisLook look) throws JMSException {
        look.addBrowsed(applicationIds.usableIdOf(message).orElse(null), message.getJMSMessageID());
    }

    /**
     * The node inside this server's JVM, which is the whole broker unless it is one node of a cluster:
     * the others' messages cannot be seen from it, so then the look cannot tell.
     */
    private record OneNodeInThisJvm(JmxArtemisControl node) implements ArtemisNodes {

        @Override
        public String anyNodeId() throws BrokerCannotTell {
            return node.nodeId();
        }

        @Override
        public Reached reachEvery() throws BrokerCannotTell {
            Set<String> members = node.clusterMembers();
            if (members.size() > 1) { // its own, and others it knows of or holds messages for
                throw new BrokerCannotTell("WildFly's Artemis is one node of a cluster of " + members.size()
                        + ", and the engine sees only the node in its own server, not the messages the others hold");
            }
            return new Reached(Map.of(node.nodeId(), node), List.of());
        }
    }
}
