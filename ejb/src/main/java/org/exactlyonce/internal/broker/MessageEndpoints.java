package org.exactlyonce.internal.broker;

import java.util.Optional;
import javax.management.JMException;

/**
 * Pauses and resumes message-driven beans' endpoints: a paused endpoint takes no messages, which wait
 * on the broker. A server that cannot pause finds no endpoint; its consumers then only hold their
 * deliveries while the database is down.
 */
public interface MessageEndpoints {

    /**
     * The server's name of a message-driven bean's endpoint in this application.
     *
     * @param beanName the bean's EJB name
     */
    Optional<String> endpointOf(String beanName);

    void pause(String endpoint) throws JMException;

    void resume(String endpoint) throws JMException;
}
