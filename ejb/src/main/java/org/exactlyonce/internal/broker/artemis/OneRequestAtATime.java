package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import java.util.List;
import java.util.Set;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * A broker of one node, asked with one connection per request and browsed through the engine's
 * factory: nothing is held between requests, so a broker that dies during a look costs that request
 * alone, never a connection held by a purge that waits for it.
 */
final class OneRequestAtATime implements ArtemisControl {

    private final BrokerConnections connections;

    OneRequestAtATime(BrokerConnections connections) {
        this.connections = connections;
    }

    @FunctionalInterface
    private interface Request<T> {
        T of(ManagementMessages node) throws BrokerCannotTell;
    }

    private <T> T ask(Request<T> request) throws BrokerCannotTell {
        try (ManagementMessages node = new ManagementMessages(connections.connectionFactory())) {
            return request.of(node);
        } catch (JMSException e) {
            throw new BrokerCannotTell("Artemis could not be reached: " + e.getMessage(), e);
        }
    }

    @Override
    public String nodeId() throws BrokerCannotTell {
        return ask(ManagementMessages::nodeId);
    }

    @Override
    public Set<String> clusterMembers() throws BrokerCannotTell {
        return ask(ManagementMessages::clusterMembers);
    }

    @Override
    public List<String> queueNames() throws BrokerCannotTell {
        return ask(ManagementMessages::queueNames);
    }

    @Override
    public List<String> addressNames() throws BrokerCannotTell {
        return ask(ManagementMessages::addressNames);
    }

    @Override
    public List<String> queuesOf(String address) throws BrokerCannotTell {
        return ask(node -> node.queuesOf(address));
    }

    @Override
    public long messageCount(String queue) throws BrokerCannotTell {
        return ask(node -> node.messageCount(queue));
    }

    @Override
    public Set<String> deadLetterAndExpiryAddresses(String queue) throws BrokerCannotTell {
        return ask(node -> node.deadLetterAndExpiryAddresses(queue));
    }

    @Override
    public String listing(String queue, Listing listing) throws BrokerCannotTell {
        return ask(node -> node.listing(queue, listing));
    }

    @Override
    public void browse(String queue, BrokerConnections.Visitor visitor) throws JMSException {
        connections.browse(queue, visitor);
    }
}
