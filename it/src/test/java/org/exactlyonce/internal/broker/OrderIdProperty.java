package org.exactlyonce.internal.broker;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.Map;
import java.util.Optional;

/** The in-container tests' rule for a message's application ID: its {@code orderId} property. */
@ApplicationScoped
public class OrderIdProperty implements ApplicationIds {

    static final String NAME = "orderId";

    @Override
    public Optional<String> usableIdOf(Message message) throws JMSException {
        return Optional.ofNullable(message.getStringProperty(NAME));
    }

    @Override
    public Optional<String> usableIdOf(Map<String, ?> properties, String jmsMessageId) {
        return Optional.ofNullable(properties.get(NAME)).map(String::valueOf);
    }
}
