package org.exactlyonce.internal.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.MessageEndpoints;
import org.exactlyonce.internal.broker.artemis.ArtemisView;
import org.exactlyonce.internal.broker.liberty.LibertyEndpoints;
import org.exactlyonce.internal.broker.liberty.MessagingEngineView;
import org.exactlyonce.internal.broker.wildfly.WildFlyEndpoints;

/**
 * Picks the broker view and the endpoint control of the server the engine runs on, by the management
 * beans the server registers: WildFly's ({@code jboss.as}) or Open Liberty's ({@code WebSphere}); the
 * broker view is a standalone Artemis's where {@link BrokerChoice} says the consumers read one.
 */
@ApplicationScoped
class Platforms {

    private static final Logger LOG = Logger.getLogger(Platforms.class.getName());

    private final boolean wildFly =
            registers("jboss.as:management-root=server") || registers("jboss.as:subsystem=messaging-activemq,*");

    @Inject
    BrokerChoice choice;

    @Inject
    ApplicationIds applicationIds;

    @Inject
    BrokerConnections connections;

    @Produces
    @ApplicationScoped
    BrokerView brokerView(Instance<MessagingEngineView> liberty) {
        if (choice.standaloneArtemis()) {
            LOG.info(() -> "exactly-once: acknowledgements are confirmed through a standalone ActiveMQ Artemis of "
                    + choice.clusterNodes() + " node(s), asked with management messages on "
                    + connections.connectionFactoryName());
            return ArtemisView.standalone(applicationIds, connections, choice.clusterNodes());
        }
        LOG.info(() -> "exactly-once: acknowledgements are confirmed through "
                + (wildFly ? "WildFly's ActiveMQ Artemis" : "Open Liberty's messaging engine"));
        return wildFly ? ArtemisView.insideWildFly(applicationIds, connections) : liberty.get();
    }

    @Produces
    @ApplicationScoped
    MessageEndpoints messageEndpoints(Instance<LibertyEndpoints> liberty, Instance<WildFlyEndpoints> wildFlyEndpoints) {
        return wildFly ? wildFlyEndpoints.get() : liberty.get();
    }

    private static boolean registers(String pattern) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            return !server.queryNames(new ObjectName(pattern), null).isEmpty();
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(pattern, e);
        }
    }
}
