package org.exactlyonce.internal.broker.artemis;

import jakarta.jms.JMSException;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;

/**
 * Artemis' own management beans in the server's JVM, as WildFly registers them with {@code
 * jmx-management-enabled=true} on its messaging server (wildfly-config/configure.cli sets it): the
 * node inside this server, and no other. Its browses go through the engine's connection factory,
 * which reaches this node in the JVM.
 */
final class JmxArtemisControl implements ArtemisControl {

    private static final String DOMAIN = "org.apache.activemq.artemis:broker=*";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final BrokerConnections connections;

    JmxArtemisControl(BrokerConnections connections) {
        this.connections = connections;
    }

    @Override
    public String nodeId() throws BrokerCannotTell {
        if (brokerAttribute("NodeID") instanceof String nodeId && !nodeId.isEmpty()) {
            return nodeId;
        }
        throw new BrokerCannotTell("Artemis has no node ID yet");
    }

    @Override
    public Set<String> clusterMembers() throws BrokerCannotTell {
        Set<String> members = new TreeSet<>();
        members.add(nodeId());
        try {
            String topology = (String) server.invoke(broker(), "listNetworkTopology", null, null);
            try (JsonReader reader = Json.createReader(new StringReader(topology))) {
                JsonArray nodes = reader.readArray();
                nodes.getValuesAs(JsonObject.class).forEach(node -> members.add(node.getString("nodeID")));
            }
            for (ObjectName clusterConnection :
                    server.queryNames(new ObjectName(DOMAIN + ",component=cluster-connections,name=*"), null)) {
                if (server.getAttribute(clusterConnection, "Nodes") instanceof Map<?, ?> nodes) {
                    nodes.keySet().forEach(node -> members.add(String.valueOf(node)));
                }
            }
            members.addAll(ArtemisControl.nodesOnTheWayTo(queueNames()));
            return members;
        } catch (JMException | RuntimeException e) {
            throw new BrokerCannotTell("Artemis could not tell the members of its cluster: " + e, e);
        }
    }

    @Override
    public List<String> queueNames() throws BrokerCannotTell {
        return sorted(brokerAttribute("QueueNames"));
    }

    @Override
    public List<String> addressNames() throws BrokerCannotTell {
        return sorted(brokerAttribute("AddressNames"));
    }

    @Override
    public List<String> queuesOf(String address) throws BrokerCannotTell {
        try {
            String addressName = DOMAIN + ",component=addresses,address=" + ObjectName.quote(address);
            if (server.queryNames(new ObjectName(addressName), null).isEmpty()) {
                throw new BrokerCannotTell("Artemis has no address " + address + " (or no management beans: set"
                        + " jmx-management-enabled=true on WildFly's messaging server)");
            }
            return server.queryNames(new ObjectName(addressName + ",subcomponent=queues,*"), null).stream()
                    .map(queue -> ObjectName.unquote(queue.getKeyProperty("queue")))
                    .sorted()
                    .toList();
        } catch (JMException e) {
            throw new BrokerCannotTell("Artemis could not list the queues of " + address + ": " + e, e);
        }
    }

    @Override
    public long messageCount(String queue) throws BrokerCannotTell {
        return ((Number) attribute(queue, "MessageCount")).longValue();
    }

    @Override
    public Set<String> deadLetterAndExpiryAddresses(String queue) throws BrokerCannotTell {
        Set<String> addresses = new TreeSet<>();
        for (String attribute : List.of("DeadLetterAddress", "ExpiryAddress")) {
            if (attribute(queue, attribute) instanceof String address && !address.isEmpty()) {
                addresses.add(address);
            }
        }
        return addresses;
    }

    @Override
    public String listing(String queue, Listing listing) throws BrokerCannotTell {
        try {
            boolean filtered = listing == Listing.AVAILABLE;
            return (String) server.invoke(
                    bean(queue),
                    listing.operation,
                    filtered ? new Object[] {""} : null,
                    filtered ? new String[] {String.class.getName()} : null);
        } catch (JMException e) {
            throw new BrokerCannotTell("Artemis could not list queue " + queue + ": " + e, e);
        }
    }

    @Override
    public void browse(String queue, BrokerConnections.Visitor visitor) throws JMSException {
        connections.browse(queue, visitor);
    }

    private ObjectName broker() throws JMException, BrokerCannotTell {
        return server.queryNames(new ObjectName(DOMAIN), null).stream()
                .filter(name -> name.getKeyPropertyList().size() == 1)
                .findFirst()
                .orElseThrow(() -> new BrokerCannotTell("Artemis registers no management bean: set"
                        + " jmx-management-enabled=true on WildFly's messaging server"));
    }

    private Object brokerAttribute(String attribute) throws BrokerCannotTell {
        try {
            return server.getAttribute(broker(), attribute);
        } catch (JMException e) {
            throw new BrokerCannotTell("Artemis cannot be asked its " + attribute + ": " + e, e);
        }
    }

    private static List<String> sorted(Object names) throws BrokerCannotTell {
        if (!(names instanceof String[] array)) {
            throw new BrokerCannotTell("Artemis answered a list of names with " + names);
        }
        return Arrays.stream(array).sorted().toList();
    }

    private Object attribute(String queue, String attribute) throws BrokerCannotTell {
        try {
            return server.getAttribute(bean(queue), attribute);
        } catch (JMException e) {
            throw new BrokerCannotTell("Artemis could not read " + attribute + " of queue " + queue + ": " + e, e);
        }
    }

    private ObjectName bean(String queue) throws JMException, BrokerCannotTell {
        Set<ObjectName> found = server.queryNames(
                new ObjectName(DOMAIN + ",component=addresses,address=*,subcomponent=queues,routing-type=*,queue="
                        + ObjectName.quote(queue)),
                null);
        return found.stream().findFirst().orElseThrow(() -> new BrokerCannotTell("Artemis has no queue " + queue));
    }
}
