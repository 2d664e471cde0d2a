package org.exactlyonce.batch;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.consumer.LocalConsumers;
import org.exactlyonce.internal.delivery.DatabaseRetry;
import org.exactlyonce.internal.delivery.DeliveriesInFlight;
import org.exactlyonce.internal.delivery.DeliverySettings;
import org.exactlyonce.internal.delivery.MessageIds;
import org.exactlyonce.internal.delivery.ServerCrashes;
import org.exactlyonce.internal.telemetry.Telemetry;

/**
 * {@link BatchedReceiver}s in the server: builders set as the message-driven bean is (the default data
 * source, the configured ID property and parking limit, the broker view the purge confirms IDs against,
 * the protocol's events, the telemetry's counts), receivers run on threads of the server's {@code ManagedThreadFactory} and
 * closed when the application stops. The purge treats their consumers as it treats the beans'.
 *
 * <pre>{@code
 * @Startup @Singleton
 * public class OrderBatches {
 *     @Resource(lookup = "java:/ConnectionFactory") ConnectionFactory connectionFactory; // not a pooled, JTA one
 *     @Resource(lookup = "jms/orders") Queue orders;
 *     @Inject BatchedReceivers receivers;
 *
 *     @PostConstruct
 *     void start() {
 *         receivers.start(receivers.builder()
 *                 .consumerName("orders-batched")
 *                 .connectionFactory(connectionFactory)
 *                 .queue(orders)
 *                 .processor(this::book));
 *     }
 * }
 * }</pre>
 */
@ApplicationScoped
public class BatchedReceivers {

    private static final Logger LOG = Logger.getLogger(BatchedReceivers.class.getName());

    private static final Duration FIRST_RESTART = Duration.ofSeconds(1);

    private static final Duration LONGEST_RESTART = Duration.ofMinutes(1);

    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    /**
     * Each batch's transaction, so that the processor may write through a persistence context too. The
     * container's built-in bean, not a {@code @Resource}: WildFly binds no {@code java:comp/UserTransaction}
     * for a bean created in a container-managed transaction, as a startup bean's receivers are.
     */
    @Inject
    private UserTransaction transaction;

    @Inject
    private MessageIds messageIds;

    @Inject
    private DeliverySettings settings;

    @Inject
    private BrokerView broker;

    @Inject
    private LocalConsumers localConsumers;

    @Inject
    private DeliveriesInFlight deliveriesInFlight;

    @Inject
    private ServerCrashes crashes;

    @Inject
    private Event<ProtocolStep> steps;

    @Inject
    private Telemetry telemetry;

    private final List<BatchedReceiver> running = new CopyOnWriteArrayList<>();

    /** A builder with the server's settings; name, connection factory, queue or topic and processor are the caller's. */
    public BatchedReceiver.Builder builder() {
        return BatchedReceiver.builder()
                .dataSource(database)
                .messageIdProperty(messageIds.idProperty())
                .parkAfterDeliveries(settings.parkAfterDeliveries())
                .databaseAttempts(settings.databaseAttempts())
                .brokerOf(broker::brokerOf)
                .steps(steps::fire)
                .counted(telemetry::counted)
                .crashGuard(crashes.guard())
                .inFlight(new BatchedReceiver.InFlight() {
                    @Override
                    public void begin(String consumer, String messageId) {
                        deliveriesInFlight.begin(consumer, messageId);
                    }

                    @Override
                    public void end(String consumer, String messageId) {
                        deliveriesInFlight.end(consumer, messageId);
                    }
                });
    }

    /**
     * Builds the receiver and runs it on a managed thread of its own until the application stops; each
     * of its transactions runs as a task of the server's default {@code ManagedExecutorService}.
     *
     * @throws IllegalArgumentException naming every setting that is missing or unusable
     * @throws IllegalStateException when the server offers no Jakarta Concurrency
     */
    public BatchedReceiver start(BatchedReceiver.Builder builder) {
        BatchedReceiver receiver = builder.serverTransactions(
                        transaction, lookUp("java:comp/DefaultManagedExecutorService", ExecutorService.class))
                .build();
        ThreadFactory threads = lookUp("java:comp/DefaultManagedThreadFactory", ThreadFactory.class);
        localConsumers.deployed(
                receiver.consumerName(),
                "a batched receiver",
                receiver.subscription(),
                receiver.previousConsumerNames());
        Thread thread = threads.newThread(() -> runUntilClosed(receiver, FIRST_RESTART));
        thread.setName("exactly-once " + receiver.consumerName());
        running.add(receiver);
        thread.start();
        return receiver;
    }

    /**
     * Runs the receiver until it is closed, and again after a failure that ended a run (a driver's
     * {@code Error}, a name recorded for another destination), after a pause that doubles up to a
     * minute: a receiver is never lost to one failure. While it does not run, readiness says so.
     */
    static void runUntilClosed(BatchedReceiver receiver, Duration firstPause) {
        Duration pause = firstPause;
        while (!receiver.isClosed()) {
            try {
                receiver.run();
                return; // closed, or its thread interrupted: the server stops
            } catch (RuntimeException | Error e) {
                if (receiver.isClosed()) {
                    return;
                }
                LOG.log(
                        Level.SEVERE,
                        receiver.consumerName() + " stopped receiving; it starts again in " + pause.toSeconds() + " s",
                        e);
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                pause = DatabaseRetry.longer(pause, LONGEST_RESTART);
            }
        }
    }

    /** The consumer names of the receivers started here that do not run now: failed, and waiting to start again. */
    public List<String> notRunning() {
        return running.stream()
                .filter(receiver -> !receiver.isRunning() && !receiver.isClosed())
                .map(BatchedReceiver::consumerName)
                .toList();
    }

    /**
     * The server's default {@code ManagedThreadFactory} or {@code ManagedExecutorService}, looked up
     * when a receiver starts rather than injected: a server without Jakarta Concurrency would warn of
     * the field at every start, whether or not the application runs a receiver.
     */
    private static <T> T lookUp(String name, Class<T> type) {
        try {
            return type.cast(InitialContext.doLookup(name));
        } catch (NamingException | ClassCastException e) {
            throw new IllegalStateException(
                    "a batched receiver runs on the server's " + name + ", which it does not offer:"
                            + " enable Jakarta Concurrency (Open Liberty's concurrent-3.0 feature)",
                    e);
        }
    }

    @PreDestroy
    void stopAll() {
        running.forEach(receiver -> {
            receiver.close();
            LOG.info(() -> receiver.consumerName() + " stopped");
        });
    }
}
