package org.exactlyonce.internal.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Which broker the consumers read, so that the purge asks that one: {@code exactlyonce.broker}, {@code
 * server} (the default: the server's own, Liberty's messaging engine or WildFly's ActiveMQ Artemis) or
 * {@code artemis} (a standalone ActiveMQ Artemis, asked through management messages sent with the
 * engine's connection factory). Checked when the application starts.
 */
@ApplicationScoped
public class BrokerChoice {

    static final String SERVER = "server";
    static final String ARTEMIS = "artemis";

    @Inject
    @ConfigProperty(name = "exactlyonce.broker", defaultValue = SERVER)
    String broker;

    boolean standaloneArtemis() {
        return ARTEMIS.equals(broker);
    }

    /** What is wrong with the setting; empty when nothing. */
    public List<String> problems() {
        return List.of(SERVER, ARTEMIS).contains(broker)
                ? List.of()
                : List.of("exactlyonce.broker is '" + broker + "', not " + SERVER + " or " + ARTEMIS);
    }
}
