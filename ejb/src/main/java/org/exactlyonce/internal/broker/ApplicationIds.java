package org.exactlyonce.internal.broker;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Map;
import java.util.Optional;

/**
 * The application's ID of a message a broker view browses or lists, read as the consumers read it. A
 * view matches the purge's candidates by it; the consumers own the rule, so the views depend on this
 * and not on them.
 */
public interface ApplicationIds {

    /** The message's ID, or empty when it carries none the consumers could use. */
    Optional<String> usableIdOf(Message message) throws JMSException;

    /**
     * The ID of a message as a broker's listing shows it, or empty when it carries none the consumers
     * could use.
     *
     * @param properties the listed message's properties by name
     * @param jmsMessageId the listed message's JMS message ID
     */
    Optional<String> usableIdOf(Map<String, ?> properties, String jmsMessageId);
}
