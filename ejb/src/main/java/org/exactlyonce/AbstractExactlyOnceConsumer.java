package org.exactlyonce;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.UserTransaction;
import java.util.Set;
import org.exactlyonce.internal.consumer.ConsumerNames;
import org.exactlyonce.internal.delivery.BeanDelivery;
import org.exactlyonce.internal.delivery.Deliveries;
import org.exactlyonce.internal.delivery.Delivery;

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

    /**
     * The bean's own transactions, which the delivery begins and commits. Injected here, not looked up
     * by the engine, so that a subclass without {@code @TransactionManagement(BEAN)} fails its
     * deployment instead of every message.
     */
    @Resource
    private UserTransaction transaction;

    @Inject
    private Deliveries deliveries;

    private BeanDelivery delivery;

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
     * say nothing about the message (a lost connection, a failover, a deadlock: the SQLStates that
     * {@code src/docs/protocol.md} lists) never park it: the transaction is retried with back-off
     * within the delivery, so this method may run more than once for one message, each time in a
     * fresh transaction; while the database stays down,
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
     * <p>Defaults to the bean's fully qualified class name, such as {@code
     * org.example.orders.OrderConsumer}: a release that puts its version into the module's file name,
     * a renamed EAR or a redeployment keeps it, and with it the IDs processed so far. Override it to
     * give two beans of one class their own names, or to keep a name when the class is renamed (or
     * declare the old one in {@link #previousConsumerNames()}). At most 100 characters, without
     * leading or trailing white space. An override that needs nothing the container injects is
     * checked at deployment, on an instance made for the check (so it must not depend on the instance
     * being a live bean); one that needs the container, when the bean's first instance is created,
     * before its first message.
     */
    protected String consumerName() {
        return ConsumerNames.defaultName(getClass());
    }

    /**
     * The names this consumer had before, when it was renamed: the IDs processed under them still
     * count. At its first delivery after a server starts, the consumer adopts the IDs and parked
     * messages recorded under each previous name that read the same destination, and the previous
     * name is forgotten; a previous name recorded for another destination is not adopted, and a
     * warning says so. None unless overridden. The name this library gave the bean by default before
     * (application, module and bean name, such as {@code orders/orders-ejb/OrderConsumer}) is adopted
     * without being named here.
     *
     * <p>Rename at a release that stops the old name everywhere: while a server still runs the
     * consumer under its old name, a message it and a server with the new name both receive (a
     * redelivery after a crash, a producer's re-send) is recorded under each name, and booked twice.
     */
    protected Set<String> previousConsumerNames() {
        return Set.of();
    }

    /** Fixes the consumer's name for the life of the instance, and refuses one the table cannot hold. */
    @PostConstruct
    private void nameTheConsumer() {
        delivery = deliveries.of(
                consumerName(),
                previousConsumerNames(),
                getClass(),
                transaction,
                (message, database) -> process(message),
                this::accepts);
    }

    /**
     * Receives one message and processes it exactly once (see {@link Delivery}). It returns normally,
     * and the container acknowledges the message, once the message is processed, recognised as a
     * duplicate or parked; it throws, and the broker redelivers the message, when processing failed or
     * the database could not be reached. Not {@code final}: the EJB
     * specification forbids final business methods, and WildFly's proxy overrides it. Implement
     * {@link #process} instead.
     */
    @Override
    public void onMessage(Message message) {
        delivery.onMessage(message);
    }
}
