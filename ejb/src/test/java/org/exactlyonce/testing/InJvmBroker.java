package org.exactlyonce.testing;

import jakarta.jms.ConnectionFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real JMS provider in the test's own JVM: an ActiveMQ Artemis broker, without persistence or
 * security, reached in-VM, started before a test class and stopped after it. Register it with
 * {@code @RegisterExtension static final InJvmBroker BROKER = new InJvmBroker();}.
 */
public final class InJvmBroker implements BeforeAllCallback, AfterAllCallback {

    /** Each broker its own in-VM acceptor: test classes may run in one JVM. */
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private EmbeddedActiveMQ broker;
    private ActiveMQConnectionFactory connections;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        String url = "vm://" + NEXT_ID.getAndIncrement();
        broker = new EmbeddedActiveMQ()
                .setConfiguration(new ConfigurationImpl()
                        .setPersistenceEnabled(false)
                        .setSecurityEnabled(false)
                        .addAcceptorConfiguration("in-vm", url));
        broker.start();
        connections = new ActiveMQConnectionFactory(url);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        connections.close();
        broker.stop();
    }

    /** The broker's connection factory, while the test class runs. */
    public ConnectionFactory connections() {
        return connections;
    }
}
