package org.exactlyonce.internal.consumer;

import jakarta.ejb.MessageDriven;
import java.util.Optional;
import org.exactlyonce.internal.processed.ProcessedMessage;
import org.exactlyonce.internal.processed.StoredIds;

/**
 * The names that scope consumers' message IDs. Two consumers that share a name share IDs, and one
 * drops the other's messages as duplicates; a consumer whose name changes forgets every ID it
 * processed. The default name is the bean's class, {@code org.example.orders.OrderConsumer}: unlike the
 * application and module names a server gives, it does not change when a release puts its version into
 * the file names (the maven-ear-plugin's default), nor when the EAR is renamed or deployed under
 * another name. A second destination recorded for one name is refused ({@link LocalConsumers}).
 */
public final class ConsumerNames {

    private ConsumerNames() {}

    /** The name of a consumer that does not choose one: its bean's fully qualified class name. */
    public static String defaultName(Class<?> bean) {
        return bean.getName();
    }

    /**
     * The name this library gave a consumer before its default was the class, application, module and
     * bean name ({@code exactly-once-sample/ledger/LedgerConsumer}): a consumer adopts the IDs recorded
     * under it, so that upgrading the library keeps them.
     *
     * @param application the application's name ({@code java:app/AppName})
     * @param module the module's name ({@code java:module/ModuleName}); a module deployed on its own is
     *     its own application, and is named once
     */
    public static String earlierDefaultName(String application, String module, Class<?> bean) {
        String prefix = application.equals(module) ? module : application + "/" + module;
        return prefix + "/" + beanName(bean);
    }

    /** The EJB name: the one {@code @MessageDriven} gives, else the class's simple name. */
    public static String beanName(Class<?> bean) {
        MessageDriven annotation = bean.getAnnotation(MessageDriven.class);
        return annotation == null || annotation.name().isEmpty() ? bean.getSimpleName() : annotation.name();
    }

    /**
     * @return the name, when the processed-ID table can hold it as it is
     * @throws IllegalStateException naming the bean and what is wrong
     */
    public static String validated(String name, Class<?> bean) {
        problemWith(name).ifPresent(problem -> {
            throw new IllegalStateException("exactly-once consumer " + bean.getName() + " cannot start: its name '"
                    + name + "' " + problem + "; override consumerName() to give it a shorter, unique one");
        });
        return name;
    }

    /** What makes a name one the processed-ID table cannot hold as it is; empty when it can. */
    public static Optional<String> problemWith(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of("is empty");
        }
        if (!name.strip().equals(name)) {
            return Optional.of("begins or ends with white space");
        }
        if (!StoredIds.isStorable(name) || name.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("holds a control character or a lone surrogate");
        }
        if (name.length() > ProcessedMessage.MAX_CONSUMER_LENGTH) {
            return Optional.of("has " + name.length() + " characters, more than the "
                    + ProcessedMessage.MAX_CONSUMER_LENGTH + " the processed-ID table holds");
        }
        return Optional.empty();
    }
}
