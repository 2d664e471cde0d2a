package org.exactlyonce.outbox;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.SQLException;
import java.time.Clock;
import java.util.UUID;
import org.exactlyonce.internal.delivery.MessageIds;
import org.exactlyonce.internal.message.MessageCopies.Copy;
import org.exactlyonce.internal.outbox.OutboxRelay;
import org.exactlyonce.internal.outbox.OutboxTable;
import org.exactlyonce.internal.outbox.Target;

/**
 * Sends messages exactly when a transaction commits, without XA: {@link #send} writes the message to
 * the outbox table in the caller's transaction, beside the processed ID and the application's rows,
 * and the relay sends it once that transaction has committed. Nothing is sent when it rolls back.
 *
 * <pre>{@code
 * @Inject Outbox outbox;
 * @Resource(lookup = "jms/ledger/Receipts") Queue receipts;
 *
 * protected void process(Message message) throws Exception {
 *     CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
 *     ledger.book(order);
 *     outbox.send(receipts, OutgoingMessage.text(CreditOrders.toJson(order.receipt())));
 * }
 * }</pre>
 *
 * <p>Each message gets an ID of its own, in the property the engine's consumers read IDs from ({@code
 * exactlyonce.message-id.property}). The relay sends a message at least once: should it stop between
 * the broker taking a message and the outbox forgetting it, the message goes again with the same ID,
 * which a downstream exactly-once consumer drops. A destination's messages go out one relay at a time
 * across servers, those one transaction writes in the order it wrote them. A message that cannot be
 * sent stays in the outbox with the reason, and is tried again.
 *
 * <p>A JMS send inside {@code process}, by contrast, either goes out even when the transaction rolls
 * back (and again on every retry), or joins the transaction as a second resource: two-phase commit.
 */
@ApplicationScoped
public class Outbox {

    private static final Object RELAY_AFTER_COMMIT = Outbox.class.getName() + ".relayAfterCommit";

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Inject
    OutboxTable table;

    @Inject
    MessageIds messageIds;

    @EJB
    OutboxRelay relay;

    private final Clock clock = Clock.systemUTC();

    /**
     * Writes a message for the destination in the caller's transaction; it is sent once the transaction
     * has committed.
     *
     * @param destination a queue or a topic, such as one the application looks up
     * @return the message's ID, which it carries in the engine's ID property
     * @throws IllegalStateException when no transaction is active, or the engine's consumers read IDs
     *     from the broker's {@code JMSMessageID}, which a sender cannot set
     * @throws IllegalArgumentException for a temporary destination, or a message that sets the ID property
     *     itself, or whose object body cannot be serialized
     * @throws SQLException when the database refuses the write; the caller's transaction should roll back
     */
    public String send(Destination destination, OutgoingMessage message) throws SQLException {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("Outbox.send needs an active transaction, such as process()'s: the"
                    + " message is sent when that transaction commits");
        }
        String idProperty = messageIds.propertyForOutgoing();
        if (message.hasProperty(idProperty)) {
            throw new IllegalArgumentException("the outbox sets the message's ID in property " + idProperty
                    + " itself; an outgoing message must not set it");
        }
        String messageId = UUID.randomUUID().toString();
        table.write(messageId, targetOf(destination), copyOf(message), clock.instant());
        relayAfterCommit();
        return messageId;
    }

    /** Once per transaction, however many messages it writes. */
    private void relayAfterCommit() {
        if (transactions.getResource(RELAY_AFTER_COMMIT) != null) {
            return;
        }
        transactions.putResource(RELAY_AFTER_COMMIT, Boolean.TRUE);
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {}

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    relay.relaySoon();
                }
            }
        });
    }

    private static Target targetOf(Destination destination) {
        try {
            return Target.of(destination);
        } catch (JMSException e) {
            throw new IllegalArgumentException("the destination's name cannot be read: " + e.getMessage(), e);
        }
    }

    private static Copy copyOf(OutgoingMessage message) {
        try {
            return message.copy();
        } catch (JMSException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
