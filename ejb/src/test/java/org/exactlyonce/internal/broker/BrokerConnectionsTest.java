package org.exactlyonce.internal.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerConnectionsTest {

    /** Outside a server no name is bound: the check names the key and the name, at the start. */
    @Test
    void aNameBoundToNoConnectionFactoryIsRefused() {
        BrokerConnections connections = new BrokerConnections();
        connections.connectionFactory = "java:app/jms/Misspelt";

        List<String> problems = connections.problems();

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(
                problems.get(0).startsWith("exactlyonce.connection-factory names no connection factory"),
                problems.get(0));
        assertTrue(problems.get(0).contains("java:app/jms/Misspelt"), problems.get(0));
    }
}
