package org.exactlyonce.internal.broker.wildfly;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.exactlyonce.internal.broker.MessageEndpoints;

/**
 * WildFly's message-driven beans, whose delivery its management model stops and starts ({@code
 * stop-delivery}, {@code start-delivery}). A stop waits for the deliveries in progress; prefetched
 * messages go back to the queue. The state lasts until the next deployment.
 */
@ApplicationScoped
@Typed(WildFlyEndpoints.class)
public class WildFlyEndpoints implements MessageEndpoints {

    private static final Logger LOG = Logger.getLogger(WildFlyEndpoints.class.getName());

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    /** The endpoint's name here is the bean's management resource, in this application's deployment. */
    @Override
    public Optional<String> endpointOf(String beanName) {
        try {
            String deployment = (String) new InitialContext().lookup("java:app/AppName");
            return server
                    .queryNames(new ObjectName("jboss.as:subsystem=ejb3,message-driven-bean=" + beanName + ",*"), null)
                    .stream()
                    .filter(name -> isDeployment(name.getKeyProperty("deployment"), deployment))
                    .map(ObjectName::getCanonicalName)
                    .findFirst();
        } catch (JMException | NamingException e) {
            LOG.fine(() -> "message endpoints cannot be paused on this server: " + e);
            return Optional.empty();
        }
    }

    @Override
    public void pause(String endpoint) throws JMException {
        server.invoke(new ObjectName(endpoint), "stopDelivery", null, null);
    }

    @Override
    public void resume(String endpoint) throws JMException {
        server.invoke(new ObjectName(endpoint), "startDelivery", null, null);
    }

    /** A deployment's name is its file's: the application's name and an extension. */
    private static boolean isDeployment(String deploymentName, String applicationName) {
        return deploymentName != null
                && (deploymentName.equals(applicationName) || deploymentName.startsWith(applicationName + "."));
    }
}
