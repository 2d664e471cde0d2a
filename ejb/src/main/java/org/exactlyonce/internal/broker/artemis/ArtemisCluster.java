package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * A broker of its own, one node or a cluster, reached through the engine's connection factory with
 * management messages. Artemis' client spreads the connections it holds open over the nodes of the
 * topology it learned, so a look opens connections, each held for the whole look and asked its node
 * ID, until it holds one to every member of the cluster that any node reports, or that this server has
 * seen since it started (a node that died, and was forgotten by the others when they restarted, still
 * holds its messages). A node that cannot be reached, or cannot say which members it knows, means the
 * look cannot tell, and so does a cluster smaller than {@code exactlyonce.artemis.cluster-nodes} says it
 * is. The connections come from the engine's factory, which the application shares: a look at a
 * cluster holds one per node while it looks; a broker of one node is asked one request at a time, with
 * nothing held between requests.
 */
final class ArtemisCluster implements ArtemisNodes {

    private static final Logger LOG = Logger.getLogger(ArtemisCluster.class.getName());

    /** Connections tried per member before a node counts as unreachable; the client deals them in turn. */
    private static final int CONNECTIONS_PER_MEMBER = 4;

    private final BrokerConnections connections;
    private final int declaredNodes;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private volatile boolean warnedOfMoreNodes;

    ArtemisCluster(BrokerConnections connections, int declaredNodes) {
        this.connections = connections;
        this.declaredNodes = declaredNodes;
    }

    @Override
    public String anyNodeId() throws BrokerCannotTell {
        try (ManagementMessages node = open()) {
            return node.nodeId();
        }
    }

    @Override
    public Reached reachEvery() throws BrokerCannotTell {
        Map<String, ManagementMessages> reached = new LinkedHashMap<>();
        List<ManagementMessages> opened = new ArrayList<>();
        try {
            Set<String> members = new TreeSet<>(seen);
            int tries = 0;
            String lastFailure = "";
            do {
                tries++;
                try {
                    ManagementMessages node = open();
                    opened.add(node);
                    String nodeId = node.nodeId();
                    if (!reached.containsKey(nodeId)) {
                        members.addAll(node.clusterMembers()); // first: a node that cannot say is not reached
                        reached.put(nodeId, node);
                    }
                } catch (BrokerCannotTell e) {
                    lastFailure = ": " + e.getMessage();
                }
            } while (!reached.keySet().containsAll(members) && tries < CONNECTIONS_PER_MEMBER * members.size());
            seen.addAll(members);
            Set<String> missing = new TreeSet<>(members);
            missing.removeAll(reached.keySet());
            if (reached.isEmpty()) {
                throw new BrokerCannotTell("no Artemis node answered in " + tries + " connections" + lastFailure);
            }
            if (!missing.isEmpty()) {
                throw new BrokerCannotTell("Artemis node(s) " + missing + " of the cluster could not be reached in "
                        + tries + " connections, and only they can show the messages they hold" + lastFailure);
            }
            checkTheDeclaredSize(reached.size());
            if (reached.size() == 1) { // one node: nothing need be held while the look goes on
                opened.forEach(ManagementMessages::close);
                return new Reached(
                        Map.of(reached.keySet().iterator().next(), new OneRequestAtATime(connections)), List.of());
            }
            List<ManagementMessages> spare = new ArrayList<>(opened);
            spare.removeAll(reached.values());
            spare.forEach(ManagementMessages::close);
            return new Reached(reached, List.copyOf(reached.values()));
        } catch (BrokerCannotTell e) {
            opened.forEach(ManagementMessages::close);
            throw e;
        } catch (RuntimeException e) {
            opened.forEach(ManagementMessages::close);
            throw new BrokerCannotTell("Artemis answered the look at its nodes unexpectedly: " + e, e);
        }
    }

    private void checkTheDeclaredSize(int nodes) throws BrokerCannotTell {
        if (nodes < declaredNodes) {
            throw new BrokerCannotTell("Artemis shows " + nodes + " node(s), and exactlyonce.artemis.cluster-nodes"
                    + " says the cluster has " + declaredNodes + ": the others may be down, holding messages");
        }
        if (nodes > declaredNodes && !warnedOfMoreNodes) {
            warnedOfMoreNodes = true;
            LOG.warning(() -> "exactly-once: Artemis shows " + nodes + " nodes, and exactlyonce.artemis.cluster-nodes"
                    + " says " + declaredNodes + ": set it to " + nodes + ", so that the purge can tell when one is"
                    + " down after the others restarted");
        }
    }

    private ManagementMessages open() throws BrokerCannotTell {
        try {
            return new ManagementMessages(connections.connectionFactory());
        } catch (JMSException e) {
            throw new BrokerCannotTell("Artemis could not be reached: " + e.getMessage(), e);
        }
    }
}
