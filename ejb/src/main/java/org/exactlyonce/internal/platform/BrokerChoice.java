package org.exactlyonce.internal.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Which broker the consumers read, so that the purge asks that one: {@code exactlyonce.broker}, {@code
 * server} (the default: the server's own, Liberty's messaging engine or WildFly's ActiveMQ Artemis) or
 * {@code artemis} (a standalone ActiveMQ Artemis, asked through management messages sent with the
 * engine's connection factory), and for a standalone Artemis {@code exactlyonce.artemis.cluster-nodes},
 * how many nodes its cluster has (1 when it is not clustered; an HA pair counts as one), so that a look
 * can tell a node that is down from one that never was. Checked when the application starts.
 */
@ApplicationScoped
public class BrokerChoice {

    static final String SERVER = "server";
    static final String ARTEMIS = "artemis";

    @Inject
    @ConfigProperty(name = "exactlyonce.broker", defaultValue = SERVER)
    String broker;

    @Inject
    @ConfigProperty(name = "exactlyonce.artemis.cluster-nodes", defaultValue = "1")
    int clusterNodes;

    boolean standaloneArtemis() {
        return ARTEMIS.equals(broker);
    }

    int clusterNodes() {
        return clusterNodes;
    }

    /** What is wrong with the settings; empty when nothing. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!List.of(SERVER, ARTEMIS).contains(broker)) {
            problems.add("exactlyonce.broker is '" + broker + "', not " + SERVER + " or " + ARTEMIS);
        }
        if (clusterNodes < 1) {
            problems.add("exactlyonce.artemis.cluster-nodes is " + clusterNodes + ", not 1 or more");
        }
        return problems;
    }
}
