package org.exactlyonce.internal.consumer;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The topic subscription a consumer's bean declares in its {@code @MessageDriven} activation config, for
 * the console: a message names its topic but not the subscription it came through. A subscription set
 * only in the server's configuration (Liberty's {@code jmsActivationSpec}, an {@code ejb-jar.xml}) is not
 * visible to the bean, and is described as such.
 */
public final class DeclaredSubscription {

    static final String UNDECLARED = "subscription not declared on the bean";

    static final String NON_DURABLE = "non-durable subscription";

    private DeclaredSubscription() {}

    /** How the bean subscribes, e.g. {@code durable subscription credit-events, client ID ledger-first}. */
    public static String of(Class<?> bean) {
        Map<String, String> config = activationConfigOf(bean);
        if (!config.containsKey("subscriptionDurability") && !config.containsKey("subscriptionName")) {
            return UNDECLARED;
        }
        boolean durable = "Durable".equalsIgnoreCase(config.get("subscriptionDurability"));
        if (!durable) {
            return NON_DURABLE;
        }
        return "durable subscription " + config.getOrDefault("subscriptionName", "(unnamed)")
                + Optional.ofNullable(config.get("clientId"))
                        .map(id -> ", client ID " + id)
                        .orElse("");
    }

    private static Map<String, String> activationConfigOf(Class<?> bean) {
        MessageDriven annotation = bean.getAnnotation(MessageDriven.class);
        if (annotation == null) {
            return Map.of();
        }
        return Arrays.stream(annotation.activationConfig())
                .collect(Collectors.toMap(
                        ActivationConfigProperty::propertyName,
                        ActivationConfigProperty::propertyValue,
                        (first, second) -> second));
    }
}
