package org.exactlyonce.purge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.exactlyonce.consume.MessageIds;
import org.exactlyonce.processed.ProcessedMessage;
import org.exactlyonce.purge.QueueLook.Browsed;
import org.exactlyonce.purge.QueueLook.Candidate;
import org.exactlyonce.purge.QueueLook.Listed;

/**
 * Asks the broker which processed messages are still on their queue, and so may still be delivered:
 * in one {@link QueueLook}, the engine's listing of every message ({@link MessagingEngineQueues}) and
 * a browse of the available ones, which also finds a producer's re-sends of an ID.
 */
@ApplicationScoped
public class PendingMessages {

    /** The engine's own ID of a message, which its listing names too. */
    private static final String SYSTEM_MESSAGE_ID = "JMS_IBM_System_MessageID";

    @Inject
    MessageIds messageIds;

    @Inject
    PurgeSettings settings;

    @Inject
    MessagingEngineQueues engineQueues;

    /**
     * @return the message IDs of those processed messages that are still on the queue
     * @throws JMSException when the broker cannot be browsed: then nothing can be confirmed
     * @throws JMException when the engine cannot list or describe the queue's messages: then nothing
     *     can be confirmed
     */
    public Set<String> stillOnQueue(String queueName, List<ProcessedMessage> processed)
            throws JMSException, JMException {
        List<Listed> listed = engineQueues.listing(queueName); // first: it names every message there now
        Set<String> wanted = new HashSet<>();
        processed.forEach(message -> wanted.add(message.messageId()));
        Browsed browsed = browse(queueName, wanted);
        List<Candidate> candidates = processed.stream()
                .map(message -> new Candidate(message.messageId(), message.jmsMessageId()))
                .toList();
        return QueueLook.pending(
                listed, browsed, candidates, engineIds -> engineQueues.jmsMessageIdsOf(queueName, engineIds));
    }

    /** One browse of the whole queue: a selector naming thousands of IDs costs more per message than it saves. */
    private Browsed browse(String queueName, Set<String> wanted) throws JMSException {
        Set<String> found = new HashSet<>();
        Set<String> systemMessageIds = new HashSet<>();
        try (JMSContext jms = connectionFactory().createContext();
                QueueBrowser browser = jms.createBrowser(jms.createQueue(queueName))) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                Message message = (Message) messages.nextElement();
                messageIds.usableIdOf(message).filter(wanted::contains).ifPresent(found::add);
                String systemMessageId = message.getStringProperty(SYSTEM_MESSAGE_ID);
                if (systemMessageId != null) {
                    systemMessageIds.add(systemMessageId);
                }
            }
        }
        return new Browsed(found, systemMessageIds);
    }

    private ConnectionFactory connectionFactory() throws JMSException {
        try {
            return (ConnectionFactory) new InitialContext().lookup(settings.connectionFactory());
        } catch (NamingException e) {
            JMSException failure = new JMSException("no connection factory at " + settings.connectionFactory());
            failure.initCause(e);
            throw failure;
        }
    }
}
