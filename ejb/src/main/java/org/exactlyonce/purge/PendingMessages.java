package org.exactlyonce.purge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.exactlyonce.consume.MessageIds;
import org.exactlyonce.processed.ProcessedMessage;

/**
 * Asks the broker which processed messages are still on their queue, and so may still be delivered:
 * those available to consumers, found by browsing the queue (a browser also finds a producer's
 * re-sends of an ID), and those delivered to a consumer and not yet acknowledged, which
 * a browser does not show and {@link LockedMessages} does.
 */
@ApplicationScoped
public class PendingMessages {

    @Inject
    MessageIds messageIds;

    @Inject
    PurgeSettings settings;

    @Inject
    LockedMessages lockedMessages;

    /**
     * @return the message IDs of those processed messages that are still on the queue
     * @throws JMSException when the broker cannot be browsed: then nothing can be confirmed
     * @throws JMException when the messages in flight cannot be listed: then nothing can be confirmed
     */
    public Set<String> stillOnQueue(String queueName, List<ProcessedMessage> processed)
            throws JMSException, JMException {
        // in flight first: a message acknowledged between the two looks is then seen by neither, rightly
        Set<String> locked = lockedMessages.jmsMessageIdsOn(queueName);
        List<String> ids = processed.stream().map(ProcessedMessage::messageId).toList();
        Set<String> pending = available(queueName, ids);
        processed.stream()
                .filter(message -> locked.contains(message.jmsMessageId()))
                .forEach(message -> pending.add(message.messageId()));
        return pending;
    }

    /** The IDs among those given that messages available on the queue carry, found by one browse. */
    private Set<String> available(String queueName, Collection<String> ids) throws JMSException {
        // one browse of the whole queue: a selector naming thousands of IDs costs more per message than it saves
        Set<String> wanted = new HashSet<>(ids);
        Set<String> pending = new HashSet<>();
        try (JMSContext jms = connectionFactory().createContext();
                QueueBrowser browser = jms.createBrowser(jms.createQueue(queueName))) {
            Enumeration<?> messages = browser.getEnumeration();
            while (messages.hasMoreElements()) {
                messageIds
                        .usableIdOf((Message) messages.nextElement())
                        .filter(wanted::contains)
                        .ifPresent(pending::add);
            }
        }
        return pending;
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
