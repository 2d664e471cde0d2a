package org.exactlyonce.internal.broker.artemis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.exactlyonce.internal.broker.BrokerCannotTell;

/**
 * How a look reaches the nodes of an Artemis broker: every node of its cluster (one, when it is not
 * clustered), each through a control pinned to it for the whole look.
 */
interface ArtemisNodes {

    /** The ID of a node of the broker, which names the broker in the IDs it delivers. */
    String anyNodeId() throws BrokerCannotTell;

    /**
     * Every node of the broker, reached.
     *
     * @throws BrokerCannotTell when a node the broker knows of, or remembers, cannot be reached: its
     *     messages cannot be seen from any other node
     */
    Reached reachEvery() throws BrokerCannotTell;

    /** The nodes one look asks, by node ID; closing it lets their connections go. */
    final class Reached implements AutoCloseable {

        private final Map<String, ArtemisControl> byNodeId;
        private final List<? extends AutoCloseable> connections;

        Reached(Map<String, ? extends ArtemisControl> byNodeId, List<? extends AutoCloseable> connections) {
            this.byNodeId = Collections.unmodifiableMap(new LinkedHashMap<>(byNodeId));
            this.connections = connections;
        }

        Map<String, ArtemisControl> byNodeId() {
            return byNodeId;
        }

        @Override
        public void close() {
            for (AutoCloseable connection : connections) {
                try {
                    connection.close();
                } catch (Exception e) {
                    // the look is over: a connection that does not close cleanly is dropped by the broker
                }
            }
        }
    }
}
