package org.exactlyonce.internal.consumer;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessInjectionTarget;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Optional;
import java.util.logging.Logger;
import org.exactlyonce.AbstractExactlyOnceConsumer;

/**
 * Fails the deployment of a consumer whose name the processed-ID table cannot hold, so that the error
 * comes with the deployment and not with the first message. Registered as a CDI extension: the
 * container tells it of every message-driven bean it will inject.
 *
 * <p>Only a name known at deployment can be checked then: the default, the bean's class name, and an
 * override of {@code consumerName()} that needs nothing the container injects, called on an instance
 * made for the check (so the bean's constructor and field initializers run once more, outside the
 * container). An override that needs the container (one that throws or returns null there) is
 * checked when the bean's first instance is created.
 */
public class ConsumerNameCheck implements Extension {

    private static final Logger LOG = Logger.getLogger(ConsumerNameCheck.class.getName());

    public <T extends AbstractExactlyOnceConsumer> void checkName(@Observes ProcessInjectionTarget<T> event) {
        Class<T> bean = event.getAnnotatedType().getJavaClass();
        if (Modifier.isAbstract(bean.getModifiers())) {
            return;
        }
        Optional<String> known =
                overridesTheName(bean) ? nameOutsideTheContainer(bean) : Optional.of(ConsumerNames.defaultName(bean));
        known.ifPresent(name -> {
            try {
                ConsumerNames.validated(name, bean);
            } catch (IllegalStateException e) {
                event.addDefinitionError(e);
            }
        });
    }

    private static boolean overridesTheName(Class<?> bean) {
        for (Class<?> type = bean; type != AbstractExactlyOnceConsumer.class; type = type.getSuperclass()) {
            try {
                type.getDeclaredMethod("consumerName");
                return true;
            } catch (NoSuchMethodException e) {
                // not declared here: look further up
            }
        }
        return false;
    }

    private static Optional<String> nameOutsideTheContainer(Class<? extends AbstractExactlyOnceConsumer> bean) {
        try {
            Method consumerName = AbstractExactlyOnceConsumer.class.getDeclaredMethod("consumerName");
            consumerName.setAccessible(true); // protected: the bean's own, asked here from outside its package
            return Optional.ofNullable(
                    (String) consumerName.invoke(bean.getDeclaredConstructor().newInstance())); // null: injected
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.fine(() -> bean.getName() + "'s name needs the container; it is checked at the first instance: " + e);
            return Optional.empty();
        }
    }
}
