package org.exactlyonce.broker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import java.lang.management.ManagementFactory;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.exactlyonce.broker.liberty.LibertyEndpoints;
import org.exactlyonce.broker.liberty.MessagingEngineView;
import org.exactlyonce.broker.wildfly.WildFlyArtemisView;
import org.exactlyonce.broker.wildfly.WildFlyEndpoints;

/**
 * Picks the broker view and the endpoint control of the server the engine runs on, by the management
 * beans the server registers: WildFly's ({@code jboss.as}) or Open Liberty's ({@code WebSphere}).
 */
@ApplicationScoped
class Platforms {

    private static final Logger LOG = Logger.getLogger(Platforms.class.getName());

    private final boolean wildFly =
            registers("jboss.as:management-root=server") || registers("jboss.as:subsystem=messaging-activemq,*");

    @Produces
    @ApplicationScoped
    BrokerView brokerView(Instance<MessagingEngineView> liberty, Instance<WildFlyArtemisView> wildFlyArtemis) {
        LOG.info(() -> "exactly-once: acknowledgements are confirmed through "
                + (wildFly ? "WildFly's ActiveMQ Artemis" : "Open Liberty's messaging engine"));
        return wildFly ? wildFlyArtemis.get() : liberty.get();
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
