package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * Artemis' management operations that a look needs of one node, by core address and queue names:
 * through its management beans where it runs in the server's JVM ({@link JmxArtemisControl}), or
 * through management messages on a connection pinned to the node where it is a broker of its own
 * ({@link ManagementMessages}). A node's management describes only that node's copy of a queue.
 */
interface ArtemisControl {

    /** The prefix of the queues in which a node holds messages on their way to another node. */
    String STORE_AND_FORWARD_PREFIX = "$.artemis.internal.sf.";

    /**
     * The nodes that store-and-forward queues among these hold messages for ({@code
     * $.artemis.internal.sf.<cluster connection>.<node ID>}): a node that died keeps its queue on the
     * others after they have forgotten it everywhere else.
     */
    static Set<String> nodesOnTheWayTo(List<String> queueNames) {
        Set<String> nodes = new TreeSet<>();
        for (String queue : queueNames) {
            if (queue.startsWith(STORE_AND_FORWARD_PREFIX) && queue.lastIndexOf('.') < queue.length() - 1) {
                nodes.add(queue.substring(queue.lastIndexOf('.') + 1));
            }
        }
        return nodes;
    }

    /** The node's ID, which lasts as long as its journal, and which its backup takes over. */
    String nodeId() throws BrokerCannotTell;

    /**
     * The node IDs of the cluster's members this node knows, its own among them: the live nodes of its
     * topology, and the nodes of its cluster connections, which keep one that died until this node
     * restarts, and those its store-and-forward queues hold messages for. An HA pair is one member.
     */
    Set<String> clusterMembers() throws BrokerCannotTell;

    /** The names of every queue on the node, the store-and-forward ones among them. */
    List<String> queueNames() throws BrokerCannotTell;

    /** The names of every address on the node. */
    List<String> addressNames() throws BrokerCannotTell;

    /**
     * The queues bound to an address on this node: a JMS queue's one, or a topic's subscriptions.
     *
     * @throws BrokerCannotTell when the node has no such address
     */
    List<String> queuesOf(String address) throws BrokerCannotTell;

    /** Messages held by the queue on this node: available, delivering and scheduled. */
    long messageCount(String queue) throws BrokerCannotTell;

    /** Where the queue's messages go when they are dead-lettered or expire, for each that is set. */
    Set<String> deadLetterAndExpiryAddresses(String queue) throws BrokerCannotTell;

    /** A {@code list…MessagesAsJSON} operation's answer; {@code listMessagesAsJSON} lists with no filter. */
    String listing(String queue, Listing listing) throws BrokerCannotTell;

    /**
     * Visits every available message of the queue on this node, uncapped, as a JMS browser sees them.
     *
     * @param queue the queue's name as a JMS client names it (on a standalone broker, its core name)
     */
    void browse(String queue, BrokerConnections.Visitor visitor) throws BrokerCannotTell, JMSException;

    /** The listings a look takes. */
    enum Listing {
        DELIVERING("listDeliveringMessagesAsJSON"),
        SCHEDULED("listScheduledMessagesAsJSON"),
        AVAILABLE("listMessagesAsJSON");

        final String operation;

        Listing(String operation) {
            this.operation = operation;
        }
    }
}
