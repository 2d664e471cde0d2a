package org.exactlyonce.broker.wildfly;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.json.JsonException;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.exactlyonce.broker.BrokerCannotTell;
import org.exactlyonce.broker.BrokerConnections;
import org.exactlyonce.broker.BrokerView;
import org.exactlyonce.consume.MessageIds;

/**
 * The ActiveMQ Artemis broker inside WildFly, seen through WildFly's management model of its JMS queues
 * (the {@code jboss.as} MBeans, no Artemis JMX needed): one {@link ArtemisLook} at the queue, and a
 * browse of its dead-letter queue, whose messages an operator can move back.
 */
@ApplicationScoped
@Typed(WildFlyArtemisView.class)
public class WildFlyArtemisView implements BrokerView {

    /** WildFly's JMS queues carry this prefix in their Artemis addresses. */
    private static final String JMS_QUEUE_PREFIX = "jms.queue.";

    @Inject
    MessageIds messageIds;

    @Inject
    BrokerConnections connections;

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Override
    public Set<String> stillOnQueue(String queue, Collection<Candidate> candidates) throws BrokerCannotTell {
        try {
            ObjectName control = jmsQueue(queue)
                    .orElseThrow(() -> new BrokerCannotTell("WildFly's messaging has no jms-queue " + queue));
            ArtemisLook look = new ArtemisLook(messageIds::usableIdOf);
            addDeliveringAndScheduled(control, look);
            browse(queue, look);
            addDeliveringAndScheduled(control, look); // again: a message delivered during the browse
            Optional<String> deadLetters = deadLetterQueueOf(control);
            if (deadLetters.isPresent()) {
                browse(deadLetters.get(), look);
            }
            return look.pending(candidates);
        } catch (JMException | JMSException | JsonException e) {
            throw new BrokerCannotTell("WildFly's messaging could not list queue " + queue + ": " + e, e);
        }
    }

    private void addDeliveringAndScheduled(ObjectName control, ArtemisLook look) throws JMException {
        look.addListing((String) server.invoke(control, "listDeliveringMessagesAsJson", null, null));
        look.addListing((String) server.invoke(control, "listScheduledMessagesAsJson", null, null));
    }

    private void browse(String queue, ArtemisLook look) throws JMSException {
        connections.browse(
                queue,
                message -> look.addBrowsed(messageIds.usableIdOf(message).orElse(null), message.getJMSMessageID()));
    }

    /** The jms-queue resource that WildFly names as the queue's JMS name. */
    private Optional<ObjectName> jmsQueue(String queue) throws JMException {
        return server
                .queryNames(new ObjectName("jboss.as:subsystem=messaging-activemq,server=*,jms-queue=" + queue), null)
                .stream()
                .findFirst();
    }

    /** The JMS name of the queue at the queue's dead-letter address, if it has one. */
    private Optional<String> deadLetterQueueOf(ObjectName control) throws JMException {
        Object address = server.getAttribute(control, "deadLetterAddress");
        if (!(address instanceof String deadLetterAddress) || !deadLetterAddress.startsWith(JMS_QUEUE_PREFIX)) {
            return Optional.empty();
        }
        String name = deadLetterAddress.substring(JMS_QUEUE_PREFIX.length());
        return jmsQueue(name).map(found -> name);
    }
}
