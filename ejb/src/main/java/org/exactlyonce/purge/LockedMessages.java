package org.exactlyonce.purge;

import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;

/**
 * The messages of a queue that are delivered to a consumer and not yet acknowledged, as Open Liberty's
 * messaging engine reports them through its queue MBean. A queue browser does not show them (tested
 * by {@code PurgeIT}), yet each may still be redelivered: a crash before the acknowledgement unlocks
 * it. Only the server that hosts the messaging engine has the MBean.
 */
@ApplicationScoped
public class LockedMessages {

    private static final String AVAILABLE = "AVAILABLE";

    /**
     * @return the JMS message IDs ({@code ID:…}) of the queue's messages in any state but available
     * @throws JMException when this server hosts no messaging engine with that queue, or the engine
     *     cannot answer: then nothing can be confirmed
     */
    public Set<String> jmsMessageIdsOn(String queueName) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName queue = new ObjectName("WebSphere:feature=wasJmsServer,type=Queue,name=" + queueName);
        if (!server.isRegistered(queue)) {
            throw new JMException("this server hosts no messaging engine with queue " + queueName
                    + ", so it cannot see messages in flight");
        }
        Set<String> locked = new HashSet<>();
        Set<Object> vanished = new HashSet<>();
        for (Object engineId : notAvailable(server, queue)) {
            try {
                Object detail = server.invoke(
                        queue, "getQueuedMessageDetail", new Object[] {engineId}, new String[] {String.class.getName()
                        });
                if (detail != null) { // null: acknowledged since it was listed
                    locked.add(jmsMessageId((String) property(detail, "apiMessageId")));
                }
            } catch (RuntimeMBeanException e) {
                // measured: a message acknowledged between listing and detail may fail inside the engine
                vanished.add(engineId);
            }
        }
        if (!vanished.isEmpty()) { // listed again only then: a listing costs as much as the queue is deep
            vanished.retainAll(notAvailable(server, queue)); // still listed: in flight, yet not described
            if (!vanished.isEmpty()) {
                throw new JMException("the messaging engine could not describe messages in flight " + vanished);
            }
        }
        return locked;
    }

    /** The engine's IDs of the queue's messages in any state but available. */
    private static Set<Object> notAvailable(MBeanServer server, ObjectName queue) throws JMException {
        Set<Object> engineIds = new HashSet<>();
        for (Object message : (Object[]) server.invoke(queue, "listQueuedMessages", null, null)) {
            if (!AVAILABLE.equals(property(message, "state"))) {
                engineIds.add(property(message, "id"));
            }
        }
        return engineIds;
    }

    /** The engine reports the API message ID without the {@code ID:} prefix that JMS adds. */
    static String jmsMessageId(String apiMessageId) {
        return apiMessageId.startsWith("ID:") ? apiMessageId : "ID:" + apiMessageId;
    }

    /** A property of the engine's message beans, whether they arrive as open data or as objects. */
    private static Object property(Object bean, String name) throws JMException {
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
