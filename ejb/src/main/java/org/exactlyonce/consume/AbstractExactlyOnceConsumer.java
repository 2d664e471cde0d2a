package org.exactlyonce.consume;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.exactlyonce.broker.BrokerView;
import org.exactlyonce.message.BodyType;
import org.exactlyonce.outage.DatabaseCalls;
import org.exactlyonce.outage.DatabaseOutage;
import org.exactlyonce.outage.TransientDatabaseFailure;
import org.exactlyonce.park.ParkReason;
import org.exactlyonce.park.ParkedMessages;
import org.exactlyonce.processed.FirstDeliveries;
import org.exactlyonce.processed.IdTableCheck;
import org.exactlyonce.processed.ProcessedMessages;
import org.exactlyonce.processed.ProcessedMessages.Duplicate;
import org.exactlyonce.protocol.ProtocolStep;
import org.exactlyonce.protocol.ProtocolStep.Step;
import org.exactlyonce.telemetry.DeliveryTrace;
import org.exactlyonce.telemetry.Outcome;
import org.exactlyonce.telemetry.Telemetry;

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
 * It must also name {@code MessageListener} as its message listener interface: WildFly looks only at
 * the interfaces the bean class itself declares, not at inherited ones (WFLYEJB0094 otherwise).
 *
 * <pre>{@code
 * @MessageDriven(
 *         messageListenerInterface = MessageListener.class,
 *         activationConfig = {
 *             @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/orders"),
 *             @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
 *         })
 * @TransactionManagement(TransactionManagementType.BEAN) // required on your class: it is not inherited
 * public class OrderConsumer extends AbstractExactlyOnceConsumer {
 *
 *     @PersistenceContext(unitName = "orders")
 *     EntityManager orders;
 *
 *     @Override
 *     protected void process(Message message) throws Exception {
 *         orders.persist(new Order(message.getBody(String.class)));
 *         orders.flush(); // a database failure surfaces here, with its SQLState, not at the commit
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
    private FirstDeliveries firstDeliveries;

    @Inject
    private ProcessedMessages processedMessages;

    @Inject
    private ParkedMessages parkedMessages;

    @EJB
    private IdTableCheck idTableCheck;

    @Inject
    private DeliverySettings settings;

    @Inject
    private Telemetry telemetry;

    @Inject
    private LocalConsumers localConsumers;

    @Inject
    private DeliveriesInFlight inFlight;

    @Inject
    private BrokerView broker;

    @Inject
    private Event<ProtocolStep> steps;

    @Inject
    private DatabaseCalls databaseCalls;

    @EJB
    private DatabaseOutage outage;

    private final Clock clock = Clock.systemUTC();

    /** This consumer's name, from {@link #consumerName()}. */
    private String consumer;

    /** Whether the ID table is known to compare IDs exactly; asked once per bean instance, not per message. */
    private boolean idTableExact;

    /**
     * Processes one message: the application's effect of it, such as database writes.
     *
     * <p>It runs inside the transaction that has just recorded the message's ID, at most once per ID
     * for this consumer. Write through a transactional {@code EntityManager} (or {@code DataSource}) on
     * the Jakarta EE default data source, {@code java:comp/DefaultDataSource}, where the processed-ID
     * table lives: only writes on that data source commit or roll back together with the ID. Do not
     * acknowledge the message and do not commit or roll back; return to commit.
     *
     * <p>Throwing rolls back the transaction, ID included. An {@link InvalidMessageException} says the
     * message itself is bad: it is parked at once, with the exception's message as the reason. Any
     * other exception has the message redelivered, until it has failed on
     * {@code exactlyonce.park-after-deliveries} deliveries; then it is parked. Database failures that
     * say nothing about the message (a lost connection, a deadlock, SQLState classes 08 and 40) never
     * park it: the transaction is retried with back-off within the delivery, so this method may run
     * more than once for one message, each time in a fresh transaction; while the database stays down,
     * the delivery waits for it, and a long outage pauses the consumer (see {@code DatabaseOutage}).
     * Flush JPA writes before returning ({@code EntityManager.flush()}): a failure that only the commit
     * meets reaches the engine, on Open Liberty, as a bare rollback without the database's SQLState, and
     * counts as a failed delivery instead of being retried.
     *
     * <p>Only writes on the default data source are undone with the transaction; anything else this
     * method does happens again on every retry and redelivery. Do not send JMS messages from here: a
     * send either goes out even when the transaction rolls back, or joins it as a second resource
     * (two-phase commit). Hand them to {@link org.exactlyonce.outbox.Outbox}, which writes them in this
     * transaction and sends them once it has committed. Calls to other systems (HTTP, mail) must be
     * safe to repeat, or be made from a message the outbox sends.
     *
     * @param message the delivered message
     * @throws Exception any failure, to have the message redelivered
     */
    protected abstract void process(Message message) throws Exception;

    /**
     * Whether this consumer can process messages of this type; one it cannot is parked without being
     * processed. Accepts every message unless overridden (e.g. {@code message instanceof TextMessage}).
     */
    protected boolean accepts(Message message) {
        return true;
    }

    /**
     * The name that scopes message IDs: two consumers of the same message (two subscribers of a topic)
     * each process it once, and two consumers that share a name share IDs. It must be unique in the
     * database, and is recorded with the destination the consumer reads: a second destination for one
     * name is refused, never merged.
     *
     * <p>Defaults to the application, module and bean name that the server keys the bean by, such as
     * {@code exactly-once-sample/ledger/LedgerConsumer}, which is unique per deployment. Override it to
     * keep the name, and with it the IDs processed so far, when the class, the module or the
     * application is renamed. At most 100 characters, without leading or trailing white space. An
     * override that needs nothing the container injects is checked at deployment, on an instance made
     * for the check (so it must not depend on the instance being a live bean); the default name, and
     * an override that needs the container, when the bean's first instance is created, before its
     * first message.
     */
    protected String consumerName() {
        try {
            return ConsumerNames.defaultName(
                    InitialContext.doLookup("java:app/AppName"),
                    InitialContext.doLookup("java:module/ModuleName"),
                    getClass());
        } catch (NamingException e) {
            throw new IllegalStateException(
                    "the server names no application or module for "
                            + getClass().getName() + "; override consumerName() to name the consumer",
                    e);
        }
    }

    /** Fixes the consumer's name for the life of the instance, and refuses one the table cannot hold. */
    @PostConstruct
    private void nameTheConsumer() {
        consumer = ConsumerNames.validated(consumerName(), getClass());
        localConsumers.deployed(consumer, DeclaredSubscription.of(getClass()));
    }

    /**
     * Receives one message and processes it exactly once: the steps of the protocol, each numbered
     * below. It returns normally, and the container acknowledges the message, once the message is
     * processed, recognised as a duplicate or parked; it throws, and the broker redelivers the message,
     * when processing failed or the database could not be reached. Not {@code final}: the EJB
     * specification forbids final business methods, and WildFly's proxy overrides it. Implement
     * {@link #process} instead.
     */
    @Override
    public void onMessage(Message message) {
        try (DeliveryTrace trace = telemetry.delivery(consumer, message)) { // one span, current while it runs
            Optional<String> usableId = idOf(message); // 1. read the ID; none: parked
            if (usableId.isPresent()) {
                trace.identified(usableId.get());
                deliver(usableId.get(), message);
            }
        }
        // 6. returning normally lets the container acknowledge the message, after the commit
    }

    /** Steps 2 to 5 for a message with a usable ID, then what became of it. */
    private void deliver(String messageId, Message message) {
        inFlight.begin(consumer, messageId); // before the look-up: the purge spares IDs in flight
        try {
            Outcome outcome = deliverWhileTheDatabaseAllows(messageId, message);
            telemetry.counted(consumer, outcome);
        } catch (TransientDatabaseFailure e) {
            telemetry.counted(consumer, Outcome.FAILED);
            throw new EJBException(
                    consumer + " handed message " + messageId + " back to the broker: the database is unavailable", e);
        } catch (ConsumerNameClash e) { // never processed nor parked under a name another consumer owns
            telemetry.counted(consumer, Outcome.FAILED);
            throw new EJBException(e.getMessage(), e);
        } catch (InterruptedException e) { // the server stops while the delivery waits: never a reason to park
            Thread.currentThread().interrupt();
            telemetry.counted(consumer, Outcome.FAILED);
            throw new EJBException(consumer + " was interrupted waiting for the database with message " + messageId, e);
        } catch (Exception e) {
            parkOrRedeliver(messageId, message, e);
        } finally {
            inFlight.end(consumer, messageId);
        }
    }

    /**
     * Runs the transaction, retried with back-off while the database fails transiently. When the
     * failures outlast the retries, a probe tells whose they are: the database answers, so the message
     * fails on its own and goes the way of any failing message (redelivered, parked after the limit);
     * or it does not, and the delivery holds until the database is back, for at most {@code
     * exactlyonce.outage.hold-delivery}; after that the message goes back to the broker and the
     * consumer's endpoint is paused.
     */
    private Outcome deliverWhileTheDatabaseAllows(String messageId, Message message) throws Exception {
        while (true) {
            if (!databaseCalls.databaseDown()) { // no attempt against a database known to be down
                try {
                    return deliverRetryingTransientFailures(messageId, message);
                } catch (TransientDatabaseFailure e) {
                    if (outage.answersNow()) {
                        throw new FailsOnItsOwn(e);
                    }
                    outage.reportDown();
                }
            }
            if (!outage.awaitBack(settings.holdDelivery())) {
                outage.handingBack(ConsumerNames.beanName(getClass()));
                throw new TransientDatabaseFailure(
                        "the database stayed down for longer than " + settings.holdDelivery());
            }
            LOG.info(() -> consumer + " retries message " + messageId + ": the database is back");
        }
    }

    /** Steps 2 to 5, again with back-off while the database fails transiently (a deadlock, a lost connection). */
    private Outcome deliverRetryingTransientFailures(String messageId, Message message) throws Exception {
        try {
            return DatabaseCalls.once(() -> deliverOnce(messageId, message));
        } catch (TransientDatabaseFailure first) {
            return databaseCalls.again(() -> deliverOnce(messageId, message));
        }
    }

    /** Steps 2 to 5, in one transaction; rolled back on any failure. */
    private Outcome deliverOnce(String messageId, Message message) throws Exception {
        Instant began = clock.instant();
        if (!idTableExact) { // once: a table that folds case or accents would merge distinct IDs
            idTableCheck.ensureExact();
            idTableExact = true;
        }
        localConsumers.verify(consumer, message); // once: a name read from two destinations would merge them
        String deliveredBy = broker.brokerOf(message).orElse(null); // outside the transaction: it may ask the broker
        try {
            transaction.begin(); // 2. begin the database transaction
            if (!firstDeliveries.record(consumer, messageId, message, deliveredBy)) { // 3. insert the ID, unless parked
                transaction.rollback();
                return parkedBefore(messageId, message) ? Outcome.PARKED : dropDuplicate(messageId, message, began);
            }
            steps.fire(new ProtocolStep(Step.BEFORE_PROCESS, consumer, messageId, message));
            process(message); // 4. the application's writes, in the same transaction
            steps.fire(new ProtocolStep(Step.BEFORE_COMMIT, consumer, messageId, message));
            transaction.commit(); // 5. commit: ID and effect become durable together
        } catch (Exception e) {
            rollbackQuietly(messageId);
            throw e;
        }
        steps.fire(new ProtocolStep(Step.AFTER_COMMIT, consumer, messageId, message));
        return Outcome.PROCESSED;
    }

    /**
     * Whether an earlier delivery parked this broker message (a crash lost the park's acknowledgement):
     * acknowledged, never processed as well.
     */
    private boolean parkedBefore(String messageId, Message message) throws JMSException {
        if (!parkedMessages.wasParkedBefore(consumer, message)) {
            return false;
        }
        LOG.fine(() -> consumer + " acknowledges message " + messageId + ", parked on an earlier delivery");
        return true;
    }

    /**
     * A delivery whose ID is in the table already: dropped, unless its payload differs from the one
     * processed, which makes it another message that reuses the ID. That one is parked, not dropped.
     */
    private Outcome dropDuplicate(String messageId, Message message, Instant began) throws JMSException {
        Duplicate duplicate = processedMessages.earlierDelivery(consumer, messageId, message, began);
        if (duplicate == Duplicate.CONFLICTING_PAYLOAD) {
            keep(
                    messageId,
                    message,
                    ParkReason.ID_REUSED,
                    "its ID was processed before with another payload: the producer reuses IDs");
            return Outcome.DUPLICATE_CONFLICT;
        }
        Outcome outcome =
                duplicate == Duplicate.LOST_RACE ? Outcome.DUPLICATE_LOST_RACE : Outcome.DUPLICATE_ALREADY_COMMITTED;
        LOG.fine(() -> consumer + " dropped a duplicate of message " + messageId + " (" + outcome.label() + ")");
        return outcome;
    }

    /** The message's usable ID; empty when it has none or is of a type not accepted, and is parked. */
    private Optional<String> idOf(Message message) {
        String messageId = null;
        try {
            messageId = messageIds.idOf(message);
            if (!accepts(message)) {
                throw new InvalidMessageException(
                        ParkReason.TYPE_NOT_ACCEPTED,
                        consumer + " does not accept " + BodyType.of(message).jmsName() + "s");
            }
            return Optional.of(messageId);
        } catch (InvalidMessageException e) {
            park(messageId, message, e.reason(), e.getMessage());
            return Optional.empty();
        } catch (JMSException e) {
            throw new EJBException(consumer + " cannot read a message, the broker will redeliver it", e);
        }
    }

    /** After a failure: parks a bad or poison message, or has the broker redeliver it by throwing. */
    private void parkOrRedeliver(String messageId, Message message, Exception failure) {
        int delivery = ParkingRule.deliveryCount(message);
        Optional<ParkingRule.Parking> parking = settings.parking().parkingAfter(failure, delivery);
        if (parking.isPresent()) {
            park(messageId, message, parking.get().reason(), parking.get().detail());
            return;
        }
        telemetry.counted(consumer, Outcome.FAILED);
        throw new EJBException(
                consumer + " failed to process message " + messageId + " (delivery " + delivery
                        + "): rolled back, the broker will redeliver it",
                failure);
    }

    /** Parks the message, after which it is acknowledged. */
    private void park(String messageId, Message message, ParkReason reason, String detail) {
        keep(messageId, message, reason, detail);
        telemetry.counted(consumer, Outcome.PARKED);
    }

    /** Keeps the message in the parked messages, in a transaction of its own. */
    private void keep(String messageId, Message message, ParkReason reason, String detail) {
        boolean parkedNow;
        try {
            transaction.begin();
            parkedNow = parkedMessages.park(
                    consumer, messageId, message, ParkingRule.deliveryCount(message), reason, detail);
            if (parkedNow) {
                transaction.commit();
            } else {
                transaction.rollback();
            }
        } catch (Exception e) {
            rollbackQuietly(messageId);
            throw new EJBException(consumer + " could not park a message, the broker will redeliver it", e);
        }
        if (parkedNow) {
            steps.fire(new ProtocolStep(Step.AFTER_PARK, consumer, messageId, message));
            return;
        }
        if (!wasParkedBefore(message)) { // a unique key that is not the message's own kept nothing
            throw new EJBException(consumer + " could not park message " + messageId
                    + ": a unique key other than its own refused the row; the broker will redeliver it");
        }
        // parked before, by a delivery whose acknowledgement a crash lost
    }

    private boolean wasParkedBefore(Message message) {
        try {
            return parkedMessages.wasParkedBefore(consumer, message);
        } catch (JMSException | RuntimeException e) {
            throw new EJBException(
                    consumer + " could not tell whether a message is parked already;" + " the broker will redeliver it",
                    e);
        }
    }

    private void rollbackQuietly(String messageId) {
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
