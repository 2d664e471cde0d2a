package org.exactlyonce.internal.outbox;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessInjectionTarget;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.logging.Logger;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.outbox.Outbox;

/**
 * Warns, when an application is deployed, of a consumer that holds what sends JMS messages (a
 * connection factory, a context, a session, a producer): a send inside {@code process} either goes
 * out even when the transaction rolls back, and again on every retry, or joins the transaction as a
 * second resource, which makes it two-phase. Registered as a CDI extension, which the container tells
 * of every message-driven bean it will inject. A warning, not a refusal: the bean may send elsewhere
 * than in {@code process}.
 */
public class DirectSendCheck implements Extension {

    private static final Logger LOG = Logger.getLogger(DirectSendCheck.class.getName());

    private static final List<Class<?>> SENDERS = List.of(
            ConnectionFactory.class,
            JMSContext.class,
            Connection.class,
            Session.class,
            MessageProducer.class,
            JMSProducer.class);

    <T extends AbstractExactlyOnceConsumer> void warnOfDirectSends(@Observes ProcessInjectionTarget<T> event) {
        Class<T> bean = event.getAnnotatedType().getJavaClass();
        if (Modifier.isAbstract(bean.getModifiers())) {
            return;
        }
        for (Class<?> type = bean; type != AbstractExactlyOnceConsumer.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (SENDERS.stream().anyMatch(sender -> sender.isAssignableFrom(field.getType()))) {
                    warn(bean, field);
                }
            }
        }
    }

    private static void warn(Class<?> bean, Field field) {
        LOG.warning(() -> "exactly-once consumer " + bean.getName() + " holds a "
                + field.getType().getSimpleName()
                + " (field " + field.getName() + "): a JMS send inside process() goes out even when the"
                + " transaction rolls back, and again on every retry, or joins the transaction as a second"
                + " resource (two-phase commit). Send through " + Outbox.class.getName()
                + ", which sends once the transaction has committed");
    }
}
