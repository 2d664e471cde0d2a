package org.exactlyonce.internal.broker.liberty;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.TemporaryQueue;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import javax.management.JMException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.broker.BrokerCannotTell;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.broker.liberty.QueueLook.Browsed;
import org.exactlyonce.internal.broker.liberty.QueueLook.Listed;

/**
 * Open Liberty's messaging engine, as the server that hosts it sees it: in one {@link QueueLook}, the
 * engine's listing of every message ({@link MessagingEngineQueues}) and a browse of the available ones,
 * which also finds a producer's re-sends of an ID; then a browse of the exception destinations, where
 * the engine moves a message it gave up on and from where an operator can move it back. A server that
 * reads a remote engine has no listing, and says so.
 */
@ApplicationScoped
@Typed(MessagingEngineView.class)
public class MessagingEngineView implements BrokerView {

    /** The engine's own ID of a message, which its listing names too. */
    private static final String SYSTEM_MESSAGE_ID = "JMS_IBM_System_MessageID";

    @Inject
    ApplicationIds applicationIds;

    @Inject
    BrokerConnections connections;

    private final MessagingEngineQueues engineQueues = new MessagingEngineQueues();
    private final MessagingEngineTopics engineTopics = new MessagingEngineTopics();

    static final String DEFAULT_EXCEPTION_DESTINATION = "_SYSTEM.Exception.Destination";

    /** Where the engine says a message on an exception destination came from. */
    private static final String PROBLEM_DESTINATION = "JMS_IBM_ExceptionProblemDestination";

    /**
     * The queues that the engine's queues name as {@code exceptionDestination}, where it moves a message
     * after its last delivery; the engine's default is {@code _SYSTEM.Exception.Destination}. Liberty
     * does not tell an application which exception destination a queue names, so they are configured.
     */
    @Inject
    @ConfigProperty(name = "exactlyonce.purge.exception-destinations", defaultValue = DEFAULT_EXCEPTION_DESTINATION)
    List<String> exceptionDestinations;

    /** How long the probe that learns the engine's name waits for its message. */
    private static final long PROBE_MILLIS = 5_000;

    private volatile String engineUuid;

    /** The engine's UUID, which the engine writes at the start of every system message ID it assigns. */
    @Override
    public Optional<String> brokerOf(Message message) {
        try {
            String systemMessageId = message.getStringProperty(SYSTEM_MESSAGE_ID);
            int end = systemMessageId == null ? -1 : systemMessageId.indexOf('_');
            return end > 0 ? Optional.of(systemMessageId.substring(0, end)) : Optional.empty();
        } catch (JMSException e) {
            return Optional.empty();
        }
    }

    /**
     * The UUID of this server's messaging engine, learned once from a message sent to a temporary queue
     * on it; it lasts as long as the engine's message store.
     */
    @Override
    public Set<String> brokers() throws BrokerCannotTell {
        return Set.of(engine());
    }

    private String engine() throws BrokerCannotTell {
        String known = engineUuid;
        if (known != null) {
            return known;
        }
        if (!engineQueues.hostsEngine()) {
            throw new BrokerCannotTell("this server hosts no messaging engine, so it sees no queue's messages");
        }
        try (JMSContext jms = connections.connectionFactory().createContext()) {
            TemporaryQueue probe = jms.createTemporaryQueue();
            jms.createProducer().send(probe, "exactly-once: which engine is this?");
            Message echo = jms.createConsumer(probe).receive(PROBE_MILLIS);
            engineUuid = Optional.ofNullable(echo)
                    .flatMap(this::brokerOf)
                    .orElseThrow(() -> new BrokerCannotTell("the messaging engine did not name itself"));
            return engineUuid;
        } catch (JMSException | JMSRuntimeException e) {
            throw new BrokerCannotTell("the messaging engine cannot be asked its name: " + e, e);
        }
    }

    @Override
    public Set<String> stillOnQueue(String queueName, Collection<Candidate> candidates) throws BrokerCannotTell {
        try {
            List<Listed> listed = engineQueues.listing(queueName); // first: it names every message there now
            Set<String> wanted = messageIdsOf(candidates);
            Browsed browsed = browse(queueName, wanted);
            Set<String> pending = new HashSet<>(QueueLook.pending(
                    listed, browsed, candidates, engineIds -> engineQueues.jmsMessageIdsOf(queueName, engineIds)));
            pending.addAll(givenUp(queueName::equals, wanted)); // after: a message moved meanwhile is there
            return pending;
        } catch (JMException | JMSException e) {
            throw new BrokerCannotTell(String.valueOf(e.getMessage()), e);
        }
    }

    /**
     * Every subscription's messages count, in every topic space: a subscription does not say which
     * consumer reads it. Producers' re-sends of an ID on a topic are dropped within the dedup window
     * only, since a topic cannot be browsed for their application IDs.
     */
    @Override
    public Set<String> stillOnTopic(String topicName, Collection<Candidate> candidates) throws BrokerCannotTell {
        try {
            Set<String> held = engineTopics.heldJmsMessageIds();
            Set<String> pending = messageIdsOf(candidates.stream()
                    .filter(candidate -> candidate.isAmong(held))
                    .toList());
            pending.addAll(
                    givenUp(from -> true, messageIdsOf(candidates))); // a topic's are marked with its topic space
            return pending;
        } catch (JMException | JMSException e) {
            throw new BrokerCannotTell(String.valueOf(e.getMessage()), e);
        }
    }

    /**
     * The wanted IDs of messages that wait on an exception destination, having come from where the
     * predicate accepts; one that does not say where it came from is counted too, which only keeps an
     * ID longer.
     */
    private Set<String> givenUp(Predicate<String> cameFromHere, Set<String> wanted)
            throws JMException, JMSException, BrokerCannotTell {
        Set<String> found = new HashSet<>();
        for (String exceptionDestination : exceptionDestinations) {
            if (!engineQueues.hostsQueue(exceptionDestination)) {
                throw BrokerCannotTell.messagesWait("exactlyonce.purge.exception-destinations names "
                        + exceptionDestination + ", which is no queue on this server's messaging engine");
            }
            connections.browse(exceptionDestination, message -> {
                String from = message.getStringProperty(PROBLEM_DESTINATION);
                if (from == null || cameFromHere.test(from)) {
                    applicationIds.usableIdOf(message).filter(wanted::contains).ifPresent(found::add);
                }
            });
        }
        return found;
    }

    private static Set<String> messageIdsOf(Collection<Candidate> candidates) {
        Set<String> ids = new HashSet<>();
        candidates.forEach(candidate -> ids.add(candidate.messageId()));
        return ids;
    }

    private Browsed browse(String queueName, Set<String> wanted) throws JMSException {
        Set<String> found = new HashSet<>();
        Set<String> systemMessageIds = new HashSet<>();
        connections.browse(queueName, message -> {
            applicationIds.usableIdOf(message).filter(wanted::contains).ifPresent(found::add);
            String systemMessageId = message.getStringProperty(SYSTEM_MESSAGE_ID);
            if (systemMessageId != null) {
                systemMessageIds.add(systemMessageId);
            }
        });
        return new Browsed(found, systemMessageIds);
    }
}
