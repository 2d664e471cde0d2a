package org.exactlyonce.broker.wildfly;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.json.JsonException;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.HashSet;
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

    private static final String JMS_TOPIC_PREFIX = "jms.topic.";

    /** The most available messages Artemis 2.44 lists of a queue (its default management page size). */
    static final int LISTING_CAP = 200;

    /** The property in which Artemis keeps a dead-lettered message's address before. */
    private static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";

    @Inject
    MessageIds messageIds;

    @Inject
    BrokerConnections connections;

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    private volatile String nodeId;

    /** The consumers read the server's own broker, in the same JVM. */
    @Override
    public Optional<String> brokerOf(Message message) {
        try {
            return Optional.of(broker());
        } catch (BrokerCannotTell e) {
            return Optional.empty();
        }
    }

    /**
     * The node ID of the server's Artemis, which lasts as long as its journal; read through Artemis'
     * own management bean, which WildFly registers with {@code jmx-management-enabled=true}.
     */
    @Override
    public String broker() throws BrokerCannotTell {
        String known = nodeId;
        if (known != null) {
            return known;
        }
        try {
            ObjectName artemis =
                    server.queryNames(new ObjectName("org.apache.activemq.artemis:broker=*"), null).stream()
                            .filter(name -> name.getKeyPropertyList().size() == 1)
                            .findFirst()
                            .orElseThrow(
                                    () -> new BrokerCannotTell(
                                            "WildFly's Artemis registers no management bean: set"
                                                    + " jmx-management-enabled=true on its server (wildfly-config/configure.cli does)"));
            nodeId = (String) server.getAttribute(artemis, "NodeID");
            return nodeId;
        } catch (JMException e) {
            throw new BrokerCannotTell("WildFly's Artemis cannot be asked its node ID: " + e, e);
        }
    }

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
                browseDeadLetters(deadLetters.get(), JMS_QUEUE_PREFIX + queue, look);
            }
            return look.pending(candidates);
        } catch (JMException | JMSException | JsonException e) {
            throw new BrokerCannotTell("WildFly's messaging could not list queue " + queue + ": " + e, e);
        }
    }

    /**
     * Every subscription of the topic counts: on Artemis each is a queue bound to the topic's address,
     * seen through Artemis' own management beans, delivering and scheduled messages before and after
     * the available ones, then the dead-letter queues of the subscriptions for messages from the topic.
     * Artemis lists at most {@value #LISTING_CAP} available messages, so a subscription that holds as
     * many is not looked at, and its IDs are kept.
     */
    @Override
    public Set<String> stillOnTopic(String topic, Collection<Candidate> candidates) throws BrokerCannotTell {
        String address = topic.startsWith(JMS_TOPIC_PREFIX) ? topic : JMS_TOPIC_PREFIX + topic;
        try {
            String addressName =
                    "org.apache.activemq.artemis:broker=*,component=addresses,address=" + ObjectName.quote(address);
            if (server.queryNames(new ObjectName(addressName), null).isEmpty()) {
                throw new BrokerCannotTell("WildFly's Artemis has no address " + address + " (or no management"
                        + " beans: set jmx-management-enabled=true on its server)");
            }
            ArtemisLook look = new ArtemisLook(messageIds::usableIdOf);
            Set<String> deadLetterAddresses = new HashSet<>();
            for (ObjectName subscription :
                    server.queryNames(new ObjectName(addressName + ",subcomponent=queues,*"), null)) {
                lookAtSubscription(subscription, look);
                if (server.getAttribute(subscription, "DeadLetterAddress") instanceof String deadLetters) {
                    deadLetterAddresses.add(deadLetters);
                }
            }
            for (String deadLetters : deadLetterAddresses) { // after: a message dead-lettered meanwhile is there
                if (deadLetters.startsWith(JMS_QUEUE_PREFIX)) {
                    browseDeadLetters(deadLetters.substring(JMS_QUEUE_PREFIX.length()), address, look);
                }
            }
            return look.pending(candidates);
        } catch (JMException | JMSException | JsonException e) {
            throw new BrokerCannotTell(
                    "WildFly's Artemis could not list the subscriptions of " + address + ": " + e, e);
        }
    }

    /**
     * The subscription's messages, when Artemis can list them all: it holds fewer than the cap before
     * and after the listing (newer messages of a higher priority could push an older one past the cap).
     */
    private void lookAtSubscription(ObjectName subscription, ArtemisLook look) throws JMException, BrokerCannotTell {
        if (heldWithinTheCap(subscription) == 0) {
            return;
        }
        addCoreDeliveringAndScheduled(subscription, look);
        look.addListing((String) server.invoke(
                subscription, "listMessagesAsJSON", new Object[] {""}, new String[] {String.class.getName()}));
        addCoreDeliveringAndScheduled(subscription, look);
        heldWithinTheCap(subscription);
    }

    private long heldWithinTheCap(ObjectName subscription) throws JMException, BrokerCannotTell {
        long held = ((Number) server.getAttribute(subscription, "MessageCount")).longValue();
        if (held >= LISTING_CAP) {
            throw BrokerCannotTell.messagesWait("subscription " + subscription.getKeyProperty("queue") + " holds "
                    + held + " messages, more than Artemis lists (" + (LISTING_CAP - 1) + " at most here)");
        }
        return held;
    }

    private void addCoreDeliveringAndScheduled(ObjectName queue, ArtemisLook look) throws JMException {
        look.addListing((String) server.invoke(queue, "listDeliveringMessagesAsJSON", null, null));
        look.addListing((String) server.invoke(queue, "listScheduledMessagesAsJSON", null, null));
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

    /**
     * The dead-lettered messages that came from the queue: Artemis names a message's address before it
     * was dead-lettered; one that does not say is counted too, which only keeps an ID longer.
     */
    private void browseDeadLetters(String deadLetterQueue, String address, ArtemisLook look) throws JMSException {
        connections.browse(deadLetterQueue, message -> {
            String from = message.getStringProperty(ORIGINAL_ADDRESS);
            if (from == null || from.equals(address)) {
                look.addBrowsed(messageIds.usableIdOf(message).orElse(null), message.getJMSMessageID());
            }
        });
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
