package org.exactlyonce.consume;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.exactlyonce.consume.ProtocolStep.Step;
import org.exactlyonce.metrics.ConsumerMetrics;
import org.exactlyonce.metrics.Outcome;
import org.exactlyonce.processed.ProcessedMessages;
import org.exactlyonce.processed.ProcessedMessages.FirstDelivery;
import org.exactlyonce.purge.ConsumerQueues;

/**
 * A message-driven bean that processes every message exactly once, with one database transaction and
 * no XA: the message's ID is inserted into the processed-ID table and the application's writes are
 * made in the same transaction; only after the commit does the container acknowledge the message. A
 * redelivery, or a producer's re-send with the same ID, finds the ID already there and is dropped.
 *
 * <p>Extend it with a {@code @MessageDriven} bean that manages its own transactions and implement
 * {@link #process(Message)}. The subclass itself must say {@code @TransactionManagement(BEAN)}: the
 * annotation is not inherited, and without it the deployment fails (on Open Liberty with CWNEN0043E,
 * "Injecting a UserTransaction interface into a container managed transaction bean is not allowed").
 *
 * <pre>{@code
 * @MessageDriven(activationConfig = {
 *     @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/ledger/Credits"),
 *     @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")})
 * @TransactionManagement(TransactionManagementType.BEAN)
 * public class CreditConsumer extends AbstractExactlyOnceConsumer {
 *     @PersistenceContext EntityManager ledger;
 *
 *     @Override
 *     protected void process(Message message) throws Exception {
 *         ledger.persist(new Credit(message.getBody(CreditOrder.class)));
 *     }
 * }
 * }</pre>
 *
 * <p>The bean never acknowledges a message itself: a message-driven bean's message is acknowledged by
 * the container when {@code onMessage} returns normally, which here is always after the commit.
 */
public abstract class AbstractExactlyOnceConsumer implements MessageListener {

    private static final Logger LOG = Logger.getLogger(AbstractExactlyOnceConsumer.class.getName());

    @Resource
    private UserTransaction transaction;

    @Inject
    private MessageIds messageIds;

    @Inject
    private ProcessedMessages processedMessages;

    @Inject
    private ConsumerMetrics metrics;

    @Inject
    private ConsumerQueues consumerQueues;

    @Inject
    private Event<ProtocolStep> steps;

    /**
     * Processes one message: the application's effect of it, such as database writes.
     *
     * <p>It runs inside the transaction that has just recorded the message's ID, at most once per ID
     * for this consumer. Write through a transactional {@code EntityManager} (or {@code DataSource}) on
     * the Jakarta EE default data source, {@code java:comp/DefaultDataSource}, where the processed-ID
     * table lives: only writes on that data source commit or roll back together with the ID. Do not
     * acknowledge the message and do not commit or roll back; return to commit.
     *
     * <p>Throwing rolls back the transaction, ID included, so the broker redelivers the message; after
     * the queue's maximum number of deliveries the broker moves it to the exception destination.
     *
     * @param message the delivered message
     * @throws Exception any failure, to have the message redelivered
     */
    protected abstract void process(Message message) throws Exception;

    /**
     * The name that scopes message IDs: two consumers of the same message (two subscribers of a topic)
     * each process it once. Defaults to the bean class's simple name; override to keep it stable when
     * the class is renamed.
     */
    protected String consumerName() {
        return getClass().getSimpleName();
    }

    @Override
    public final void onMessage(Message message) {
        String consumer = consumerName();
        consumerQueues.remember(consumer, message); // so the purge knows which queue to ask about its IDs
        String messageId = idOf(consumer, message); // 1. read the ID
        try {
            transaction.begin(); // 2. begin the database transaction
            FirstDelivery delivery = processedMessages.recordFirstDelivery(consumer, messageId, message); // 3.
            if (delivery != FirstDelivery.FIRST) {
                transaction.rollback();
                dropDuplicate(consumer, messageId, delivery);
                return; // acknowledged, without effect
            }
            process(message); // 4. the application's writes, in the same transaction
            steps.fire(new ProtocolStep(Step.BEFORE_COMMIT, consumer, messageId, message));
            transaction.commit(); // 5. commit: ID and effect become durable together
        } catch (Exception e) {
            rollbackQuietly(consumer, messageId);
            metrics.count(consumer, Outcome.FAILED);
            throw new EJBException(
                    consumer + " failed to process message " + messageId
                            + ": rolled back, the broker will redeliver it",
                    e);
        }
        steps.fire(new ProtocolStep(Step.AFTER_COMMIT, consumer, messageId, message));
        metrics.count(consumer, Outcome.PROCESSED);
        // 6. returning normally lets the container acknowledge the message, after the commit
    }

    private String idOf(String consumer, Message message) {
        try {
            return messageIds.idOf(message);
        } catch (Exception e) {
            metrics.count(consumer, Outcome.REJECTED);
            LOG.warning(() -> consumer + " rejected a message it cannot process: " + e.getMessage());
            throw new EJBException(consumer + " rejected a message: " + e.getMessage(), e);
        }
    }

    private void dropDuplicate(String consumer, String messageId, FirstDelivery delivery) {
        Outcome outcome =
                delivery == FirstDelivery.LOST_RACE ? Outcome.DUPLICATE_LOST_RACE : Outcome.DUPLICATE_ALREADY_COMMITTED;
        metrics.count(consumer, outcome);
        LOG.fine(() -> consumer + " dropped a duplicate of message " + messageId + " (" + outcome.label() + ")");
    }

    private void rollbackQuietly(String consumer, String messageId) {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (Exception e) {
            // the failure being reported is the one that matters; an unfinished transaction times out
            LOG.log(Level.WARNING, consumer + " could not roll back message " + messageId, e);
        }
    }
}
