package org.exactlyonce.internal.broker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import java.util.Enumeration;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The engine's own connections to the broker, through one connection factory: to browse queues for
 * the purge, to replay parked messages, and to check the broker answers.
 */
@ApplicationScoped
public class BrokerConnections {

    /** What is done with each browsed message. */
    @FunctionalInterface
    public interface Visitor {
        void visit(Message message) throws JMSException;
    }

    /** JNDI name of the connection factory the engine browses queues and replays parked messages with. */
    @Inject
    @ConfigProperty(name = "exactlyonce.connection-factory", defaultValue = "java:comp/DefaultJMSConnectionFactory")
    String connectionFactory;

    public String connectionFactoryName() {
        return connectionFactory;
    }

    /**
     * Visits every message the broker shows a browser of the whole queue: the available ones, on every
     * broker. One browse, not a selector naming thousands of IDs, which costs more per message than it
     * saves (and a filtered listing is capped on some brokers).
     */
    public void browse(String queueName, Visitor visitor) throws JMSException {
        try (JMSContext jms = connectionFactory().createContext();
                QueueBrowser browser = jms.createBrowser(jms.createQueue(queueName))) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                visitor.visit((Message) messages.nextElement());
            }
        }
    }

    /** @throws JMSException when no connection factory is bound under the configured name */
    public ConnectionFactory connectionFactory() throws JMSException {
        Object bound;
        try {
            bound = new InitialContext().lookup(connectionFactory);
        } catch (NamingException e) {
            JMSException failure = new JMSException("no connection factory at " + connectionFactory);
            failure.initCause(e);
            throw failure;
        }
        if (bound instanceof ConnectionFactory factory) {
            return factory;
        }
        throw new JMSException(
                connectionFactory + " is a " + bound.getClass().getName() + ", not a connection factory");
    }

    /**
     * What is unusable in the setting; empty when a connection factory is bound under the name. Looked
     * up, not connected: a broker that is down at the start is an outage, which readiness reports.
     */
    public List<String> problems() {
        try {
            connectionFactory();
            return List.of();
        } catch (JMSException e) {
            return List.of("exactlyonce.connection-factory names no connection factory: " + e.getMessage());
        }
    }
}
