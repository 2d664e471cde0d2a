package org.exactlyonce.internal.broker.artemis;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.exactlyonce.internal.broker.BrokerCannotTell;

/**
 * Artemis' own management beans in the server's JVM, as WildFly registers them with {@code
 * jmx-management-enabled=true} on its messaging server (wildfly-config/configure.cli sets it).
 */
final class JmxArtemisControl implements ArtemisControl {

    private static final String DOMAIN = "org.apache.activemq.artemis:broker=*";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Override
    public String nodeId() throws BrokerCannotTell {
        try {
            ObjectName broker = server.queryNames(new ObjectName(DOMAIN), null).stream()
                    .filter(name -> name.getKeyPropertyList().size() == 1)
                    .findFirst()
                    .orElseThrow(() -> new BrokerCannotTell("Artemis registers no management bean: set"
                            + " jmx-management-enabled=true on WildFly's messaging server"));
            return (String) server.getAttribute(broker, "NodeID");
        } catch (JMException e) {
            throw new BrokerCannotTell("Artemis cannot be asked its node ID: " + e, e);
        }
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
    public Optional<String> deadLetterAddress(String queue) throws BrokerCannotTell {
        return attribute(queue, "DeadLetterAddress") instanceof String address && !address.isEmpty()
                ? Optional.of(address)
                : Optional.empty();
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
