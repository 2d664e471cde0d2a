package org.exactlyonce.broker.liberty;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import org.exactlyonce.broker.BrokerCannotTell;
import org.exactlyonce.broker.BrokerConnections;
import org.exactlyonce.broker.BrokerView;
import org.exactlyonce.broker.liberty.QueueLook.Browsed;
import org.exactlyonce.broker.liberty.QueueLook.Listed;
import org.exactlyonce.consume.MessageIds;

/**
 * Open Liberty's messaging engine, as the server that hosts it sees it: in one {@link QueueLook}, the
 * engine's listing of every message ({@link MessagingEngineQueues}) and a browse of the available ones,
 * which also finds a producer's re-sends of an ID. A server that reads a remote engine has no listing,
 * and says so.
 */
@ApplicationScoped
@Typed(MessagingEngineView.class)
public class MessagingEngineView implements BrokerView {

    /** The engine's own ID of a message, which its listing names too. */
    private static final String SYSTEM_MESSAGE_ID = "JMS_IBM_System_MessageID";

    @Inject
    MessageIds messageIds;

    @Inject
    BrokerConnections connections;

    private final MessagingEngineQueues engineQueues = new MessagingEngineQueues();

    @Override
    public Set<String> stillOnQueue(String queueName, Collection<Candidate> candidates) throws BrokerCannotTell {
        try {
            List<Listed> listed = engineQueues.listing(queueName); // first: it names every message there now
            Set<String> wanted = new HashSet<>();
            candidates.forEach(candidate -> wanted.add(candidate.messageId()));
            Browsed browsed = browse(queueName, wanted);
            return QueueLook.pending(
                    listed, browsed, candidates, engineIds -> engineQueues.jmsMessageIdsOf(queueName, engineIds));
        } catch (JMException | JMSException e) {
            throw new BrokerCannotTell(String.valueOf(e.getMessage()), e);
        }
    }

    private Browsed browse(String queueName, Set<String> wanted) throws JMSException {
        Set<String> found = new HashSet<>();
        Set<String> systemMessageIds = new HashSet<>();
        connections.browse(queueName, message -> {
            messageIds.usableIdOf(message).filter(wanted::contains).ifPresent(found::add);
            String systemMessageId = message.getStringProperty(SYSTEM_MESSAGE_ID);
            if (systemMessageId != null) {
                systemMessageIds.add(systemMessageId);
            }
        });
        return new Browsed(found, systemMessageIds);
    }
}
