package org.exactlyonce.harness;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;
import java.util.Optional;
import org.exactlyonce.sample.ledger.CreditOrder;

/**
 * A credit order with faults to inject while it is processed: the JSON the tests post and the body of
 * the message. The sample's consumers read the same body as a {@link CreditOrder}, without the faults.
 *
 * @param faults faults to inject; {@code null} for none
 */
public record TestCredit(String messageId, String account, long amount, Faults faults) {

    private static final Jsonb JSON = JsonbBuilder.create();

    /** The credit of a message's body; empty when the body is no credit order (a test message to park). */
    static Optional<TestCredit> in(Message message) throws JMSException {
        if (!(message instanceof TextMessage text) || text.getText() == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(JSON.fromJson(text.getText(), TestCredit.class));
        } catch (JsonbException notACredit) {
            return Optional.empty();
        }
    }

    String toJson() {
        return JSON.toJson(this);
    }

    CreditOrder order() {
        return new CreditOrder(messageId, account, amount);
    }

    /**
     * Faults a test server can inject (see {@link FaultInjection}).
     *
     * @param failDeliveries how many deliveries fail before one succeeds
     * @param crashAt the protocol step at which the server halts, once per message unless {@code
     *     crashEveryDelivery}
     * @param pauseMillis how long the delivery waits at that step before the halt
     * @param processMillis how long each delivery takes, to slow a stream down
     * @param failUntilEpochMilli every delivery fails until this time (a transient outage of a dependency)
     * @param deadlocks how many attempts fail as a database deadlock would (SQLState 40001), counted
     *     across deliveries by this server
     * @param crashEveryDelivery whether the server halts at {@code crashAt} on every delivery of the
     *     message, as one whose processing exhausts the memory would
     */
    public record Faults(
            int failDeliveries,
            String crashAt,
            long pauseMillis,
            long processMillis,
            long failUntilEpochMilli,
            int deadlocks,
            boolean crashEveryDelivery) {}
}
