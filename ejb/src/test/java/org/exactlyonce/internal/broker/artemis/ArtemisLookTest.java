package org.exactlyonce.internal.broker.artemis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.junit.jupiter.api.Test;

/** Listings as WildFly 39's Artemis 2.44 returns them (measured), and what one look makes of them. */
class ArtemisLookTest {

    /** {@code list-delivering-messages-as-json}: consumers, each with the messages it holds. */
    private static final String DELIVERING = """
            [{"consumerName":"ServerConsumer [id=7dbcb560:0]","elements":[{"durable":true,\
            "address":"jms.queue.LedgerCredits","messageId":"order-1","messageID":224,"type":3,"priority":4,\
            "userID":"ID:885bd396"}]},{"consumerName":"ServerConsumer [id=7db64ca6:0]","elements":[]}]""";

    /** {@code list-scheduled-messages-as-json}: the messages themselves. */
    private static final String SCHEDULED = """
            [{"durable":true,"address":"jms.queue.LedgerCredits","messageId":"order-2","userID":"ID:99aa"}]""";

    private final ArtemisLook look = new ArtemisLook(ArtemisLookTest::applicationId);

    @Test
    void aDeliveringMessageIsPendingByItsApplicationId() {
        look.addListing(DELIVERING);

        assertEquals(Set.of("order-1"), look.pending(List.of(new Candidate("order-1", "ID:other"))));
    }

    @Test
    void aScheduledRedeliveryIsPending() {
        look.addListing(SCHEDULED);

        assertEquals(Set.of("order-2"), look.pending(List.of(new Candidate("order-2", "ID:99aa"))));
    }

    @Test
    void aMessageWithoutTheApplicationIdIsPendingByItsJmsMessageId() {
        look.addListing("""
                [{"durable":true,"userID":"ID:885bd396"}]""");

        assertEquals(Set.of("order-1"), look.pending(List.of(new Candidate("order-1", "ID:885bd396"))));
    }

    @Test
    void aBrowsedMessageIsPendingAndAnUnseenOneIsGone() {
        look.addListing(DELIVERING);
        look.addListing("[]");
        look.addBrowsed("order-3", "ID:b3");

        assertEquals(
                Set.of("order-1", "order-3"),
                look.pending(List.of(
                        new Candidate("order-1", "ID:885bd396"),
                        new Candidate("order-3", "ID:b3"),
                        new Candidate("order-4", "ID:b4"))));
    }

    private static Optional<String> applicationId(Map<String, ?> properties, String jmsMessageId) {
        return Optional.ofNullable((String) properties.get("messageId"));
    }
}
