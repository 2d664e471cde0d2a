package org.exactlyonce.internal.consumer;

import jakarta.ejb.MessageDriven;
import java.util.Optional;
import org.exactlyonce.internal.processed.ProcessedMessage;

/**
 * The names that scope consumers' message IDs. Two consumers that share a name share IDs, and one
 * drops the other's messages as duplicates: the default name is the one a server keys the bean's
 * activation by, unique in a deployment — application, module and bean name, as in
 * {@code exactly-once-sample/ledger/LedgerConsumer}.
 */
public final class ConsumerNames {

    private ConsumerNames() {}

    /**
     * @param application the application's name ({@code java:app/AppName})
     * @param module the module's name ({@code java:module/ModuleName}); a module deployed on its own is
     *     its own application, and is named once
     */
    public static String defaultName(String application, String module, Class<?> bean) {
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
        return Optional.ofNullable(
                name == null || name.isBlank()
                        ? "is empty"
                        : !name.strip().equals(name)
                                ? "begins or ends with white space"
                                : name.length() > ProcessedMessage.MAX_CONSUMER_LENGTH
                                        ? "has " + name.length() + " characters, more than the "
                                                + ProcessedMessage.MAX_CONSUMER_LENGTH + " the processed-ID table holds"
                                        : null);
    }
}
