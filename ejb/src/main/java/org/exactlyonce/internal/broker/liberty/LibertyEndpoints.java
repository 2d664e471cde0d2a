package org.exactlyonce.internal.broker.liberty;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.exactlyonce.internal.broker.MessageEndpoints;

/**
 * Open Liberty's message endpoints, paused and resumed through its {@code ServerEndpointControl} MBean
 * as {@code server pause --target=app#module#bean} does.
 */
@ApplicationScoped
@Typed(LibertyEndpoints.class)
public class LibertyEndpoints implements MessageEndpoints {

    private static final Logger LOG = Logger.getLogger(LibertyEndpoints.class.getName());

    private static final String CONTROL = "WebSphere:feature=kernel,name=ServerEndpointControl";

    /** The endpoint's name here is {@code application#module#bean}. */
    @Override
    public Optional<String> endpointOf(String beanName) {
        try {
            String prefix = applicationName() + "#";
            String suffix = "#" + beanName;
            return listEndpoints().stream()
                    .filter(name -> name.startsWith(prefix) && name.endsWith(suffix))
                    .findFirst();
        } catch (JMException | NamingException e) {
            LOG.fine(() -> "message endpoints cannot be paused on this server: " + e);
            return Optional.empty();
        }
    }

    @Override
    public void pause(String endpoint) throws JMException {
        control("pause", endpoint);
    }

    @Override
    public void resume(String endpoint) throws JMException {
        control("resume", endpoint);
    }

    @SuppressWarnings("unchecked")
    private static List<String> listEndpoints() throws JMException {
        return (List<String>) server().invoke(new ObjectName(CONTROL), "listEndpoints", null, null);
    }

    private static void control(String operation, String endpoint) throws JMException {
        server().invoke(new ObjectName(CONTROL), operation, new Object[] {endpoint}, new String[] {
            String.class.getName()
        });
    }

    private static MBeanServer server() {
        return ManagementFactory.getPlatformMBeanServer();
    }

    private static String applicationName() throws NamingException {
        return (String) new InitialContext().lookup("java:app/AppName");
    }
}
