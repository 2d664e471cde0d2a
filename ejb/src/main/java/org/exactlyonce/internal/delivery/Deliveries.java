package org.exactlyonce.internal.delivery;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.transaction.UserTransaction;
import java.time.Clock;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.internal.broker.BrokerView;
import org.exactlyonce.internal.consumer.ConsumerNames;
import org.exactlyonce.internal.consumer.DeclaredSubscription;
import org.exactlyonce.internal.consumer.LocalConsumers;
import org.exactlyonce.internal.outage.DatabaseOutage;
import org.exactlyonce.internal.outage.DatabaseStatus;
import org.exactlyonce.internal.processed.IdTableCheck;
import org.exactlyonce.internal.telemetry.Telemetry;

/**
 * What the message-driven beans share: the one collaborator of {@link AbstractExactlyOnceConsumer},
 * which makes each bean instance its {@link BeanDelivery}.
 */
@ApplicationScoped
public class Deliveries {

    private static final Logger LOG = Logger.getLogger(Deliveries.class.getName());

    /** The data source of the persistence unit, where the application's writes go too. */
    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource database;

    @Inject
    MessageIds messageIds;

    @EJB
    IdTableCheck idTableCheck;

    @Inject
    DeliverySettings settings;

    @Inject
    Telemetry telemetry;

    @Inject
    LocalConsumers localConsumers;

    @Inject
    DeliveriesInFlight inFlight;

    @Inject
    ServerCrashes crashes;

    @Inject
    BrokerView broker;

    @Inject
    Event<ProtocolStep> steps;

    @Inject
    DatabaseStatus status;

    @EJB
    DatabaseOutage outage;

    private final Clock clock = Clock.systemUTC();

    /** Whether the ID table is known to compare IDs exactly; asked until it is, not per message. */
    private volatile boolean idTableExact;

    /**
     * The delivery of one bean instance's messages, under the name the bean gives, which is checked
     * here: a name the table cannot hold fails the instance.
     *
     * @param previous the names the bean had before, whose IDs it adopts; the name this library gave it
     *     by default before is one, without being declared
     * @param bean the bean's class, which the server keys its endpoint by
     * @param transaction the bean's own
     * @param processing the bean's {@code process}, in the delivery's transaction
     * @param accepts the bean's {@code accepts}
     */
    public BeanDelivery of(
            String name,
            Set<String> previous,
            Class<?> bean,
            UserTransaction transaction,
            Delivery.Processing processing,
            Predicate<Message> accepts) {
        String consumer = ConsumerNames.validated(name, bean);
        Set<String> adopted = new HashSet<>(previous);
        earlierDefaultName(bean).ifPresent(adopted::add);
        localConsumers.deployed(consumer, "bean " + bean.getName(), DeclaredSubscription.of(bean), adopted);
        Delivery delivery = new Delivery(
                consumer,
                new JtaTransactions(transaction, database),
                new DatabaseRetry(
                        settings.databaseAttempts(), new WhileTheServerHolds(ConsumerNames.beanName(bean), consumer)),
                settings.parking(),
                crashes.guard(),
                steps::fire,
                telemetry::counted,
                clock);
        return new BeanDelivery(delivery, processing, accepts, this);
    }

    /** The name this library gave the bean by default before, when the server names its application and module. */
    private static Optional<String> earlierDefaultName(Class<?> bean) {
        try {
            return Optional.of(ConsumerNames.earlierDefaultName(
                    InitialContext.doLookup("java:app/AppName"),
                    InitialContext.doLookup("java:module/ModuleName"),
                    bean));
        } catch (NamingException e) {
            LOG.fine(() -> "the server names no application or module for " + bean.getName() + ": " + e);
            return Optional.empty();
        }
    }

    /**
     * Checks made before each attempt, once they pass: the ID table compares IDs exactly (one that
     * folds case or accents would merge distinct IDs), and the consumer's name is not recorded for
     * another destination (which would merge them).
     */
    public void check(String consumer, Message message) throws Exception {
        if (!idTableExact) {
            idTableCheck.ensureExact();
            idTableExact = true;
        }
        localConsumers.verify(consumer, message);
    }

    /**
     * The server's consumers share one probe of a database that is down ({@link DatabaseOutage}); a
     * delivery waits for it at most {@code exactlyonce.outage.hold-delivery}, then hands its message
     * back and has its bean's endpoint paused until the database is back.
     */
    private final class WhileTheServerHolds implements DatabaseHold {

        private final String bean;
        private final String consumer;

        WhileTheServerHolds(String bean, String consumer) {
            this.bean = bean;
            this.consumer = consumer;
        }

        @Override
        public boolean knownDown() {
            return status.databaseDown();
        }

        @Override
        public boolean answersNow() {
            return outage.answersNow();
        }

        @Override
        public boolean awaitBack() throws InterruptedException {
            outage.reportDown();
            if (outage.awaitBack(settings.holdDelivery())) {
                LOG.info(() -> consumer + " tries again: the database is back");
                return true;
            }
            outage.handingBack(bean);
            return false;
        }
    }
}
