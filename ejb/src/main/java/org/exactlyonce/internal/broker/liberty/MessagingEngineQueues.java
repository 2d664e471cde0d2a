package org.exactlyonce.internal.broker.liberty;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import org.exactlyonce.internal.broker.liberty.QueueLook.Listed;

/**
 * A queue's messages in every state — available, and delivered to a consumer but not yet
 * acknowledged — as Open Liberty's messaging engine reports them through its queue MBean. A queue
 * browser shows only the available ones (tested by {@code PurgeIT}), yet a delivered message may
 * still be redelivered: a crash before the acknowledgement unlocks it. Only the server that hosts the
 * messaging engine has the MBean.
 */
final class MessagingEngineQueues {

    private static final String AVAILABLE = "AVAILABLE";

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    /**
     * Every message on the queue, as the engine lists it; one call, whatever the queue's depth.
     *
     * @throws JMException when this server hosts no messaging engine with that queue, or the engine
     *     cannot answer: then nothing can be confirmed
     */
    List<Listed> listing(String queueName) throws JMException {
        List<Listed> listed = new ArrayList<>();
        for (Object message : (Object[]) server.invoke(queue(queueName), "listQueuedMessages", null, null)) {
            listed.add(
                    new Listed((String) property(message, "id"), AVAILABLE.equals(property(message, "state")), (String)
                            property(message, "systemMessageId")));
        }
        return listed;
    }

    /**
     * The JMS message IDs ({@code ID:…}) of listed messages, one engine call each; a message
     * acknowledged since it was listed is left out.
     *
     * @throws JMException when a message that is still listed cannot be described
     */
    Map<String, String> jmsMessageIdsOf(String queueName, Set<String> engineIds) throws JMException {
        ObjectName queue = queue(queueName);
        Map<String, String> described = new HashMap<>();
        Set<String> vanished = new HashSet<>();
        for (String engineId : engineIds) {
            try {
                Object detail = server.invoke(
                        queue, "getQueuedMessageDetail", new Object[] {engineId}, new String[] {String.class.getName()
                        });
                if (detail != null) { // null: acknowledged since it was listed
                    described.put(engineId, jmsMessageId((String) property(detail, "apiMessageId")));
                }
            } catch (RuntimeMBeanException e) {
                // measured: a message acknowledged between listing and detail may fail inside the engine
                vanished.add(engineId);
            }
        }
        if (!vanished.isEmpty()) { // listed again only then: a listing costs as much as the queue is deep
            Set<String> stillListed = new HashSet<>();
            for (Listed still : listing(queueName)) {
                stillListed.add(still.engineId());
            }
            vanished.retainAll(stillListed); // still listed: on the queue, yet not described
            if (!vanished.isEmpty()) {
                throw new JMException("the messaging engine could not describe messages on the queue " + vanished);
            }
        }
        return described;
    }

    /** Whether this server hosts a messaging engine. */
    boolean hostsEngine() {
        try {
            return !server.queryNames(new ObjectName("WebSphere:feature=wasJmsServer,type=MessagingEngine,*"), null)
                    .isEmpty();
        } catch (JMException e) {
            return false;
        }
    }

    /** Whether this server's engine has the queue. */
    boolean hostsQueue(String queueName) throws JMException {
        return server.isRegistered(queueBean(queueName));
    }

    private static ObjectName queueBean(String queueName) throws JMException {
        return new ObjectName("WebSphere:feature=wasJmsServer,type=Queue,name=" + queueName);
    }

    private ObjectName queue(String queueName) throws JMException {
        ObjectName queue = queueBean(queueName);
        if (!server.isRegistered(queue)) {
            throw new JMException("this server hosts no messaging engine with queue " + queueName
                    + ", so it cannot see messages in flight");
        }
        return queue;
    }

    /** The engine reports the API message ID without the {@code ID:} prefix that JMS adds. */
    static String jmsMessageId(String apiMessageId) {
        return apiMessageId.startsWith("ID:") ? apiMessageId : "ID:" + apiMessageId;
    }

    /** A property of the engine's message beans, whether they arrive as open data or as objects. */
    static Object property(Object bean, String name) throws JMException {
        if (bean instanceof CompositeData data) {
            return data.get(name);
        }
        try {
            String getter = "get" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
            return bean.getClass().getMethod(getter).invoke(bean);
        } catch (ReflectiveOperationException e) {
            JMException failure = new JMException(
                    "cannot read " + name + " of " + bean.getClass().getName());
            failure.initCause(e);
            throw failure;
        }
    }
}
