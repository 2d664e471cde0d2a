package org.exactlyonce.internal.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerChoiceTest {

    @Test
    void theDefaultsAreUsable() {
        assertEquals(List.of(), choice("server", 1).problems());
    }

    @Test
    void anUnknownBrokerAndAClusterOfNoNodeAreRefusedByName() {
        assertEquals(
                List.of(
                        "exactlyonce.broker is 'rabbit', not server or artemis",
                        "exactlyonce.artemis.cluster-nodes is 0, not 1 or more"),
                choice("rabbit", 0).problems());
    }

    private static BrokerChoice choice(String broker, int clusterNodes) {
        BrokerChoice choice = new BrokerChoice();
        choice.broker = broker;
        choice.clusterNodes = clusterNodes;
        return choice;
    }
}
