package org.exactlyonce.internal.broker.liberty;

import static org.exactlyonce.internal.broker.liberty.MessagingEngineQueues.jmsMessageId;
import static org.exactlyonce.internal.broker.liberty.MessagingEngineQueues.property;

import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;

/**
 * The messages that subscriptions to the engine's topics hold, durable or not, in every state
 * (available, and delivered but not yet acknowledged), as Open Liberty's messaging engine reports them
 * through the MBean of each topic space. A topic cannot be browsed: only these listings show a
 * subscription's messages, and only on the server that hosts the engine.
 */
final class MessagingEngineTopics {

    private static final String[] ONE_STRING = {String.class.getName()};
    private static final String[] TWO_STRINGS = {String.class.getName(), String.class.getName()};

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    /**
     * The JMS message IDs ({@code ID:…}) of the messages every subscription of every topic space holds:
     * a call per subscription and one per message.
     *
     * @throws JMException when this server hosts no engine with a topic space, or the engine cannot
     *     answer or describe a message it still lists: then nothing can be confirmed
     */
    Set<String> heldJmsMessageIds() throws JMException {
        Set<ObjectName> topicSpaces =
                server.queryNames(new ObjectName("WebSphere:feature=wasJmsServer,type=Topic,*"), null);
        if (topicSpaces.isEmpty()) {
            throw new JMException("this server hosts no messaging engine with a topic space, so it sees no"
                    + " subscription's messages");
        }
        Set<String> held = new HashSet<>();
        for (ObjectName topicSpace : topicSpaces) {
            for (Object subscription : (Object[]) server.invoke(topicSpace, "listSubscriptions", null, null)) {
                String subscriptionId = (String) property(subscription, "id");
                for (String engineId : messagesOf(topicSpace, subscriptionId)) {
                    described(topicSpace, subscriptionId, engineId).ifPresent(held::add);
                }
            }
        }
        return held;
    }

    private Set<String> messagesOf(ObjectName topicSpace, String subscriptionId) throws JMException {
        Set<String> engineIds = new HashSet<>();
        Object[] messages = (Object[])
                server.invoke(topicSpace, "getSubscriptionMessages", new Object[] {subscriptionId}, ONE_STRING);
        if (messages == null) { // the engine did not find it: gone meanwhile, or not; next run knows
            throw new JMException("the messaging engine did not list the messages of subscription " + subscriptionId);
        }
        for (Object message : messages) {
            engineIds.add((String) property(message, "id"));
        }
        return engineIds;
    }

    /** A listed message's JMS message ID; empty when it was acknowledged since it was listed. */
    private Optional<String> described(ObjectName topicSpace, String subscriptionId, String engineId)
            throws JMException {
        try {
            Object detail = server.invoke(
                    topicSpace, "getSubscriptionMessageDetail", new Object[] {subscriptionId, engineId}, TWO_STRINGS);
            return detail == null
                    ? Optional.empty()
                    : Optional.of(jmsMessageId((String) property(detail, "apiMessageId")));
        } catch (RuntimeMBeanException e) { // as on queues: a message acknowledged meanwhile may fail inside the engine
            if (messagesOf(topicSpace, subscriptionId).contains(engineId)) {
                JMException failure = new JMException(
                        "the messaging engine could not describe message " + engineId + " of a subscription");
                failure.initCause(e);
                throw failure;
            }
            return Optional.empty();
        }
    }
}
