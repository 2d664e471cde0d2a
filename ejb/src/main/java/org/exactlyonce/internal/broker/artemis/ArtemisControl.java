package org.exactlyonce.internal.broker.artemis;

import java.util.List;
import java.util.Optional;
import org.exactlyonce.internal.broker.BrokerCannotTell;

/**
 * Artemis' management operations that a look needs, by core address and queue names: through its
 * management beans where it runs in the server's JVM ({@link JmxArtemisControl}), or through management
 * messages where it is a broker of its own ({@link ArtemisManagement}).
 */
interface ArtemisControl {

    /** The broker's node ID, which lasts as long as its journal. */
    String nodeId() throws BrokerCannotTell;

    /**
     * The queues bound to an address: a JMS queue's one, or a topic's subscriptions.
     *
     * @throws BrokerCannotTell when the broker has no such address
     */
    List<String> queuesOf(String address) throws BrokerCannotTell;

    /** Messages held by the queue: available, delivering and scheduled. */
    long messageCount(String queue) throws BrokerCannotTell;

    /** The queue's dead-letter address, if it has one. */
    Optional<String> deadLetterAddress(String queue) throws BrokerCannotTell;

    /** A {@code list…MessagesAsJSON} operation's answer; {@code listMessagesAsJSON} lists with no filter. */
    String listing(String queue, Listing listing) throws BrokerCannotTell;

    /** The listings a look takes. */
    enum Listing {
        DELIVERING("listDeliveringMessagesAsJSON"),
        SCHEDULED("listScheduledMessagesAsJSON"),
        AVAILABLE("listMessagesAsJSON");

        final String operation;

        Listing(String operation) {
            this.operation = operation;
        }
    }
}
