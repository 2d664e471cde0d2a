package org.exactlyonce.batch;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.consumer.ConsumerNameClash;
import org.exactlyonce.internal.consumer.ConsumerNames;
import org.exactlyonce.internal.consumer.ConsumerRows;
import org.exactlyonce.internal.delivery.CrashGuard;
import org.exactlyonce.internal.delivery.CrashJournal;
import org.exactlyonce.internal.delivery.DatabaseHold;
import org.exactlyonce.internal.delivery.DatabaseRetry;
import org.exactlyonce.internal.delivery.DeliveriesInFlight;
import org.exactlyonce.internal.delivery.Delivery;
import org.exactlyonce.internal.delivery.HandBack;
import org.exactlyonce.internal.delivery.JdbcTransactions;
import org.exactlyonce.internal.delivery.JtaTransactions;
import org.exactlyonce.internal.delivery.MessageIds;
import org.exactlyonce.internal.delivery.ParkingRule;
import org.exactlyonce.internal.delivery.ProcessingError;
import org.exactlyonce.internal.outage.WriteProbe;
import org.exactlyonce.internal.processed.IdRows;
import org.exactlyonce.internal.processed.IdRows.IdRow;
import org.exactlyonce.internal.processed.SqlStates;
import org.exactlyonce.internal.telemetry.Outcome;

/**
 * Receives a queue's messages, or a topic's through a shared durable subscription, in batches and
 * processes each exactly once, many messages per database transaction: the same protocol as {@link
 * AbstractExactlyOnceConsumer}, batch-wide. It receives up to {@code maxMessages} (or what arrives
 * within {@code maxWait} of the first), inserts their IDs and runs
 * {@link BatchProcessor#process} for each in one JDBC transaction, commits, and only then acknowledges
 * them all. A crash before the database commit has the broker redeliver the batch, which is processed
 * again; a crash after it has every redelivered message found in the processed-ID table and dropped.
 *
 * <p>When a batch fails (a message that cannot be processed, a duplicate among them), its transaction
 * rolls back and its messages are processed again one per transaction, so that one message's failure
 * neither loses nor doubles the others: duplicates are dropped (or parked when their payload differs
 * from the one processed), invalid and poison messages are parked as the message-driven bean parks
 * them, and a message that is to be tried again has the broker redeliver the batch, whose processed
 * messages are then duplicates. While the database does not answer, the batch waits for it.
 *
 * <p>It works in plain Java SE, where each transaction is its data source's own, and in the server,
 * built and run by {@link BatchedReceivers}, where each batch's transaction is a JTA transaction on the
 * default data source, in one phase: the processor may write through a persistence context on that data
 * source as well as through the connection it is given, and the JMS session commits after the JTA
 * transaction. In the server, acknowledge through a {@linkplain Acknowledgement#TRANSACTED_SESSION transacted
 * session}: Open Liberty turns {@code CLIENT_ACKNOWLEDGE} into automatic acknowledgement there, which
 * would acknowledge a batch before its commit. On WildFly, take a connection factory that allows local
 * transactions outside JTA (a plain {@code connection-factory}, such as {@code
 * java:/ConnectionFactory}, not the pooled {@code java:/JmsXA}).
 *
 * <pre>{@code
 * BatchedReceiver receiver = BatchedReceiver.builder()
 *         .consumerName("orders-batched")
 *         .connectionFactory(connectionFactory)
 *         .queue(ordersQueue)
 *         .dataSource(dataSource)
 *         .processor((message, database) -> insertOrder(database, message.getBody(String.class)))
 *         .build();
 * executor.submit(receiver); // runs until closed
 * ...
 * receiver.close();
 * }</pre>
 *
 * <p>On a topic, receivers given the same topic and subscription name share that subscription's
 * messages, as a queue's receivers share the queue, and the broker keeps what is published while none
 * runs. Each subscription is a consumer of its own, with a consumer name of its own: two subscriptions
 * under one name would have the second drop every message the first processed.
 *
 * <p>IDs are read from the message property {@code messageIdProperty} ({@code messageId} unless set),
 * as the message-driven bean reads them; the tables are the engine's ({@code src/ddl}), where the
 * server's purge deletes the IDs of messages its broker view confirms gone.
 */
public final class BatchedReceiver implements Runnable, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(BatchedReceiver.class.getName());

    /** How long a receive waits for a first message before it looks whether the receiver is closed. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private static final Duration FIRST_BACK_OFF = Duration.ofMillis(100);

    private final Builder settings;

    private final Delivery delivery;

    private final Clock clock = Clock.systemUTC();

    /** Guards {@link #runner}, and is told when it ends. */
    private final Object lifecycle = new Object();

    /** The thread running the receiver; {@code null} between runs. */
    private Thread runner;

    private volatile boolean closed;

    private BatchedReceiver(Builder settings) {
        this.settings = settings;
        this.delivery = new Delivery(
                settings.consumerName,
                settings.userTransaction == null
                        ? new JdbcTransactions(settings.dataSource)
                        : new JtaTransactions(
                                settings.userTransaction, settings.dataSource, settings.transactionThreads),
                new DatabaseRetry(settings.databaseAttempts, new WhileRunning()),
                new ParkingRule(settings.parkAfterDeliveries),
                settings.crashGuard,
                settings.steps,
                settings.counted,
                clock);
    }

    /** A builder; consumer name, connection factory, queue or topic, data source and processor are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** How the receiver acknowledges a batch once its database transaction has committed. */
    public enum Acknowledgement {
        /** A transacted JMS session, committed after the database: in the server, and anywhere else. */
        TRANSACTED_SESSION,
        /** {@code Message.acknowledge()} on the batch's last message: outside a server only. */
        CLIENT_ACKNOWLEDGE
    }

    /** The consumer name that scopes the IDs, as {@link AbstractExactlyOnceConsumer#consumerName} does. */
    public String consumerName() {
        return settings.consumerName;
    }

    /** The names the receiver had before, whose IDs it adopts. */
    public Set<String> previousConsumerNames() {
        return settings.previousConsumerNames;
    }

    /**
     * Receives and processes batches until {@link #close}d or interrupted. Refuses to start when the
     * consumer name is recorded for another destination. Should the broker fail, it connects again. A
     * run that ended by a failure, which no message's processing causes (that message is parked), may
     * be run again; in the server, {@link BatchedReceivers} does so.
     *
     * @throws IllegalStateException when the name is another destination's, or the receiver runs already
     */
    @Override
    public void run() {
        synchronized (lifecycle) {
            if (runner != null || closed) {
                throw new IllegalStateException(settings.consumerName + " runs already, or was closed");
            }
            runner = Thread.currentThread();
        }
        try {
            registerDestination();
            LOG.info(() -> settings.consumerName + " receives " + sourceName() + " in batches of up to "
                    + settings.maxMessages + " within " + settings.maxWait.toMillis() + " ms");
            receiveUntilClosed();
        } finally {
            synchronized (lifecycle) {
                runner = null;
                lifecycle.notifyAll();
            }
        }
    }

    /** Whether a thread runs the receiver now: false before its start, after it is closed, and after a failure. */
    public boolean isRunning() {
        synchronized (lifecycle) {
            return runner != null;
        }
    }

    /** Whether the receiver was closed, and runs no more. */
    public boolean isClosed() {
        return closed;
    }

    /** Stops receiving, and waits up to 30 seconds for the batch in hand to finish. */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (lifecycle) {
            try {
                for (long left = 30_000; runner != null && left > 0; ) {
                    lifecycle.wait(left);
                    left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (runner != null) {
                LOG.warning(
                        () -> settings.consumerName + " did not stop within 30 s; its batch goes back to the broker");
            }
        }
    }

    private boolean stopping() {
        return closed || Thread.currentThread().isInterrupted();
    }

    private void receiveUntilClosed() {
        Duration backOff = FIRST_BACK_OFF;
        while (!stopping()) {
            try (JMSContext jms = settings.user == null
                            ? settings.connectionFactory.createContext(sessionMode())
                            : settings.connectionFactory.createContext(
                                    settings.user, settings.password, sessionMode());
                    JMSConsumer consumer = consumerOn(jms)) {
                backOff = FIRST_BACK_OFF;
                while (!stopping()) {
                    List<Message> batch = receiveBatch(consumer);
                    if (!batch.isEmpty()) {
                        deliver(batch, jms);
                    }
                }
            } catch (JMSRuntimeException e) {
                if (stopping()) {
                    return;
                }
                LOG.log(Level.WARNING, settings.consumerName + " lost its broker connection; connects again", e);
                pause(backOff);
                backOff = DatabaseRetry.longer(backOff);
            }
        }
    }

    private JMSConsumer consumerOn(JMSContext jms) {
        return settings.topic == null
                ? jms.createConsumer(settings.queue)
                : jms.createSharedDurableConsumer(settings.topic, settings.subscriptionName);
    }

    private int sessionMode() {
        return settings.acknowledgement == Acknowledgement.TRANSACTED_SESSION
                ? JMSContext.SESSION_TRANSACTED
                : JMSContext.CLIENT_ACKNOWLEDGE;
    }

    /** The first message within {@link #POLL}, then whatever else arrives within {@code maxWait}, up to {@code maxMessages}. */
    private List<Message> receiveBatch(JMSConsumer consumer) {
        List<Message> batch = new ArrayList<>();
        Message first = consumer.receive(POLL.toMillis());
        if (first == null) {
            return batch;
        }
        batch.add(first);
        long deadline = System.nanoTime() + settings.maxWait.toNanos();
        while (batch.size() < settings.maxMessages) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            Message next = left > 0 ? consumer.receive(left) : consumer.receiveNoWait();
            if (next == null) {
                break;
            }
            batch.add(next);
        }
        return batch;
    }

    /**
     * The protocol for one batch: its messages without a usable ID parked, the others processed in one
     * transaction (or one per transaction after a failure), then all acknowledged, or all handed back
     * when one of them is to be tried again.
     */
    private void deliver(List<Message> batch, JMSContext jms) {
        boolean handled;
        List<IdRow> identified = List.of();
        try {
            identified = identified(batch);
            identified.forEach(row -> settings.inFlight.begin(settings.consumerName, row.messageId()));
            handled = identified.isEmpty()
                    || (!delivery.anyInterruptedBefore(identified) && commitTogether(identified))
                    || processOneByOne(identified);
        } catch (HandBack e) {
            LOG.log(Level.WARNING, e.getMessage() + "; its batch of " + batch.size() + " goes back", e.getCause());
            handled = false;
        } catch (Exception e) { // the broker or the database failed past the point of holding
            LOG.log(
                    Level.WARNING,
                    settings.consumerName + " hands a batch of " + batch.size() + " back to the broker",
                    e);
            handled = false;
        } finally {
            identified.forEach(row -> settings.inFlight.end(settings.consumerName, row.messageId()));
        }
        acknowledgeOrHandBack(batch, jms, handled);
    }

    private void acknowledgeOrHandBack(List<Message> batch, JMSContext jms, boolean handled) {
        if (settings.acknowledgement == Acknowledgement.TRANSACTED_SESSION) {
            if (handled) {
                jms.commit(); // after the database's commit: a crash before this redelivers only duplicates
            } else {
                jms.rollback();
            }
        } else if (handled) {
            acknowledge(batch.get(batch.size() - 1));
        } else {
            jms.recover();
        }
    }

    private static void acknowledge(Message last) {
        try {
            last.acknowledge(); // every message the session has received so far
        } catch (JMSException e) {
            throw new JMSRuntimeException("the broker refused the acknowledgement", e.getErrorCode(), e);
        }
    }

    /**
     * The messages to process: those with a usable ID, but for one that an earlier delivery parked (its
     * batch was handed back for another message, or a crash lost its acknowledgement), which is
     * acknowledged with the batch and never processed. The others are parked, each in a transaction of
     * its own. The whole batch is looked up, in one query per 500 messages: the delivery count cannot
     * say which messages may have been parked (after its restart Artemis counts a paged message's
     * redelivery as a first delivery).
     */
    private List<IdRow> identified(List<Message> batch) throws Exception {
        Set<String> parkedBefore = delivery.parkedAmong(batch);
        List<IdRow> identified = new ArrayList<>();
        for (Message message : batch) {
            if (!parkedBefore.isEmpty() && parkedBefore.contains(message.getJMSMessageID())) {
                LOG.fine(() -> settings.consumerName + " acknowledges a message parked on an earlier delivery");
                delivery.counted(Outcome.PARKED); // as the message-driven bean counts it
                continue;
            }
            try {
                String messageId = MessageIds.validated(
                        settings.messageIdProperty, MessageIds.read(message, settings.messageIdProperty));
                identified.add(new IdRow(
                        messageId, message, settings.brokerOf.apply(message).orElse(null)));
            } catch (InvalidMessageException e) {
                delivery.park(null, message, e.reason(), e.getMessage());
            }
        }
        return identified;
    }

    /**
     * The whole batch in one transaction, journaled while it runs: every ID in one round trip, then each
     * message processed.
     *
     * @return false when it rolled back for a reason that one message may hold: a duplicate, a failing
     *     or invalid message
     */
    private boolean commitTogether(List<IdRow> rows) {
        List<CrashJournal.Entry> journaled = new ArrayList<>();
        try {
            rows.forEach(row -> journaled.add(delivery.journal(row.messageId())));
            delivery.inTransaction(database -> {
                IdRows.insertAll(database, settings.consumerName, rows, clock.instant());
                for (IdRow row : rows) {
                    delivery.step(Step.BEFORE_PROCESS, row.messageId(), row.message());
                    ProcessingError.carried(settings.processor::process, row.message(), database);
                }
                rows.forEach(row -> delivery.step(Step.BEFORE_COMMIT, row.messageId(), row.message()));
                return null;
            });
        } catch (Exception e) {
            LOG.fine(() ->
                    settings.consumerName + " processes a batch of " + rows.size() + " one message at a time: " + e);
            return false;
        } finally { // one at a time, each message is journaled by itself: a crash then counts against it alone
            journaled.forEach(CrashJournal.Entry::close);
        }
        rows.forEach(row -> delivery.step(Step.AFTER_COMMIT, row.messageId(), row.message()));
        rows.forEach(row -> delivery.counted(Outcome.PROCESSED));
        return true;
    }

    /**
     * Each message in a transaction of its own, as the message-driven bean delivers it.
     *
     * @return whether every message was processed, dropped or parked; false when one is to be redelivered
     */
    private boolean processOneByOne(List<IdRow> rows) {
        boolean handled = true;
        for (IdRow row : rows) {
            try {
                delivery.deliver(row, Delivery.Check.NONE, settings.processor::process);
            } catch (HandBack e) {
                LOG.log(Level.WARNING, e.getMessage() + " with its batch", e.getCause());
                handled = false;
            }
        }
        return handled;
    }

    /**
     * Records the queue or topic for the consumer name, and refuses to run when the name is recorded
     * for another destination; then adopts what the receiver's previous names hold.
     */
    private void registerDestination() {
        ConsumerDestination recorded;
        try {
            ConsumerDestination reading = ConsumerDestination.of(settings.consumerName, source(), clock.instant());
            recorded = delivery.outside(database -> recordedDestination(database, reading));
            if (!recorded.isSameDestinationAs(source())) {
                throw new ConsumerNameClash(recorded, reading);
            }
        } catch (ConsumerNameClash e) {
            LOG.severe(e::getMessage);
            throw new IllegalStateException(e.getMessage(), e);
        } catch (Exception e) {
            LOG.log(Level.SEVERE, settings.consumerName + " cannot start: it cannot read the consumers' table", e);
            throw new IllegalStateException(settings.consumerName + " cannot read the consumers' table", e);
        }
        adoptPreviousNames(recorded);
    }

    /** Adopts each previous name's IDs; a failure leaves them to the server's next purge run. */
    private void adoptPreviousNames(ConsumerDestination recorded) {
        for (String previous : settings.previousConsumerNames) {
            try {
                delivery.inTransaction(database -> ConsumerRows.adopt(database, previous, recorded))
                        .ifPresentOrElse(
                                ConsumerRows.Adoption::report, () -> ConsumerRows.reportForeign(recorded, previous));
            } catch (Exception e) {
                LOG.log(Level.WARNING, settings.consumerName + " could not adopt the IDs of '" + previous + "'", e);
            }
        }
    }

    /** The destination recorded for the name, recorded now when there is none; the connection commits each statement. */
    private static ConsumerDestination recordedDestination(Connection database, ConsumerDestination reading)
            throws SQLException {
        Optional<ConsumerDestination> recorded = ConsumerRows.find(database, reading.consumer());
        if (recorded.isPresent()) {
            return recorded.get();
        }
        try {
            ConsumerRows.insert(database, reading);
            return reading;
        } catch (SQLException e) {
            if (SqlStates.isUniqueViolation(e)) { // another receiver of the name recorded it first
                return ConsumerRows.find(database, reading.consumer()).orElseThrow(() -> e);
            }
            throw e;
        }
    }

    private Destination source() {
        return settings.topic == null ? settings.queue : settings.topic;
    }

    private String sourceName() {
        try {
            return settings.topic == null
                    ? "queue " + settings.queue.getQueueName()
                    : "topic " + settings.topic.getTopicName() + " through its " + subscription();
        } catch (JMSException e) {
            return settings.topic == null ? "its queue" : "its topic";
        }
    }

    /** How the receiver subscribes to its topic, as the console shows it. */
    String subscription() {
        return settings.topic == null ? "" : "shared durable subscription " + settings.subscriptionName;
    }

    /**
     * While the database does not answer, the batch waits for it for as long as the receiver runs,
     * asking it again after growing pauses.
     */
    private final class WhileRunning implements DatabaseHold {

        @Override
        public boolean knownDown() {
            return false;
        }

        @Override
        public boolean answersNow() {
            return WriteProbe.takesWrites(settings.dataSource);
        }

        @Override
        public boolean awaitBack() {
            LOG.warning(() -> settings.consumerName + " holds its batch: the database does not answer");
            Duration backOff = FIRST_BACK_OFF;
            while (!stopping()) {
                pause(backOff);
                backOff = DatabaseRetry.longer(backOff);
                if (answersNow()) {
                    LOG.info(() -> settings.consumerName + " goes on: the database answers again");
                    return true;
                }
            }
            return false;
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Where a server's purge learns which IDs are being delivered ({@link DeliveriesInFlight}): each
     * batch's IDs begin before they are inserted and end once the batch is acknowledged or handed back.
     */
    interface InFlight {
        void begin(String consumer, String messageId);

        void end(String consumer, String messageId);

        InFlight NONE = new InFlight() {
            @Override
            public void begin(String consumer, String messageId) {}

            @Override
            public void end(String consumer, String messageId) {}
        };
    }

    /** The receiver's settings; {@link #build} checks them all and names every unusable one. */
    public static final class Builder {

        private String consumerName;
        private Set<String> previousConsumerNames = Set.of();
        private ConnectionFactory connectionFactory;
        private String user;
        private String password;
        private Queue queue;
        private Topic topic;
        private String subscriptionName;
        private DataSource dataSource;
        private UserTransaction userTransaction;
        private ExecutorService transactionThreads;
        private BatchProcessor processor;
        private int maxMessages = 100;
        private Duration maxWait = Duration.ofMillis(5);
        private Acknowledgement acknowledgement = Acknowledgement.TRANSACTED_SESSION;
        private String messageIdProperty = "messageId";
        private int parkAfterDeliveries = 5;
        private int databaseAttempts = 4;
        private Function<Message, Optional<String>> brokerOf = message -> Optional.empty();
        private Consumer<ProtocolStep> steps = step -> {};
        private InFlight inFlight = InFlight.NONE;

        private CrashGuard crashGuard = CrashGuard.OFF;
        private BiConsumer<String, Outcome> counted = (consumer, outcome) -> {};

        private Builder() {}

        /** The name that scopes the IDs; at most 100 characters, unique in the database. */
        public Builder consumerName(String consumerName) {
            this.consumerName = consumerName;
            return this;
        }

        /**
         * The names the receiver had before, when it was renamed: at its start it adopts the IDs and
         * parked messages recorded under each that read the same destination, as {@link
         * org.exactlyonce.AbstractExactlyOnceConsumer#previousConsumerNames()} says.
         */
        public Builder previousConsumerNames(String... previousConsumerNames) {
            this.previousConsumerNames = Set.of(previousConsumerNames);
            return this;
        }

        public Builder connectionFactory(ConnectionFactory connectionFactory) {
            this.connectionFactory = connectionFactory;
            return this;
        }

        /** The broker's user and password, for a connection factory that has none of its own. */
        public Builder credentials(String user, String password) {
            this.user = user;
            this.password = password;
            return this;
        }

        /** The queue to receive; a receiver reads a queue or a topic. */
        public Builder queue(Queue queue) {
            this.queue = queue;
            return this;
        }

        /**
         * The topic to receive, through the shared durable subscription of this name (JMS 2.0's {@code
         * createSharedDurableConsumer}): the receivers given the same topic and name share its
         * messages, and the broker keeps them while none runs. A receiver reads a queue or a topic.
         */
        public Builder topic(Topic topic, String subscriptionName) {
            this.topic = topic;
            this.subscriptionName = subscriptionName;
            return this;
        }

        /** The database of the engine's tables and of the application's writes. */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = dataSource;
            return this;
        }

        /**
         * Set by the server's {@link BatchedReceivers}: each transaction is a JTA transaction begun
         * through the {@code UserTransaction}, which a persistence context on the data source joins, as a
         * task of the executor's.
         */
        Builder serverTransactions(UserTransaction userTransaction, ExecutorService transactionThreads) {
            this.userTransaction = userTransaction;
            this.transactionThreads = transactionThreads;
            return this;
        }

        public Builder processor(BatchProcessor processor) {
            this.processor = processor;
            return this;
        }

        /** The most messages in one transaction; 100 unless set, from 1 to 10,000. */
        public Builder maxMessages(int maxMessages) {
            this.maxMessages = maxMessages;
            return this;
        }

        /** How long a batch waits for more messages after its first; 5 ms unless set, at most a minute. */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /** {@link Acknowledgement#TRANSACTED_SESSION} unless set. */
        public Builder acknowledgement(Acknowledgement acknowledgement) {
            this.acknowledgement = acknowledgement;
            return this;
        }

        /** The property carrying the application's message ID ({@code JMSMessageID}: the broker's); {@code messageId} unless set. */
        public Builder messageIdProperty(String messageIdProperty) {
            this.messageIdProperty = messageIdProperty;
            return this;
        }

        /** Deliveries after which a message whose processing keeps failing is parked; 5 unless set. */
        public Builder parkAfterDeliveries(int parkAfterDeliveries) {
            this.parkAfterDeliveries = parkAfterDeliveries;
            return this;
        }

        /**
         * Attempts at a transaction that fail transiently (a deadlock, a lost connection) before the
         * receiver asks whether the database answers; 4 unless set.
         */
        public Builder databaseAttempts(int databaseAttempts) {
            this.databaseAttempts = databaseAttempts;
            return this;
        }

        /**
         * The broker that delivered a message, as the purge's broker view names it; the purge confirms
         * an ID only against that broker. Unknown unless set, and then only age can end an ID.
         */
        public Builder brokerOf(Function<Message, Optional<String>> brokerOf) {
            this.brokerOf = brokerOf;
            return this;
        }

        /** Told of each point of the protocol, on the receiving thread; what it throws fails the message, as processing would. */
        public Builder steps(Consumer<ProtocolStep> steps) {
            this.steps = steps;
            return this;
        }

        /** Set by the server's {@link BatchedReceivers}, whose purge spares the IDs in flight. */
        /** The server's guard against messages that crash it; off outside a server. */
        Builder crashGuard(CrashGuard crashGuard) {
            this.crashGuard = crashGuard;
            return this;
        }

        Builder inFlight(InFlight inFlight) {
            this.inFlight = inFlight;
            return this;
        }

        /** Set by the server's {@link BatchedReceivers}: each message's outcome, for the telemetry. */
        Builder counted(BiConsumer<String, Outcome> counted) {
            this.counted = counted;
            return this;
        }

        /**
         * @throws IllegalArgumentException naming every setting that is missing or unusable
         */
        public BatchedReceiver build() {
            List<String> problems = new ArrayList<>();
            ConsumerNames.problemWith(consumerName)
                    .ifPresent(problem -> problems.add("consumerName '" + consumerName + "' " + problem));
            requirePresent(problems, "connectionFactory", connectionFactory);
            if ((queue == null) == (topic == null)) {
                problems.add(
                        queue == null
                                ? "a queue or a topic is required"
                                : "a queue and a topic were given: a receiver reads one");
            }
            if (topic != null && (subscriptionName == null || subscriptionName.isBlank())) {
                problems.add("the topic's subscriptionName must name a subscription, is '" + subscriptionName + "'");
            }
            requirePresent(problems, "dataSource", dataSource);
            requirePresent(problems, "processor", processor);
            requirePresent(problems, "acknowledgement", acknowledgement);
            if (acknowledgement == Acknowledgement.CLIENT_ACKNOWLEDGE && userTransaction != null) {
                problems.add("acknowledgement CLIENT_ACKNOWLEDGE works outside a server only: inside one, Open"
                        + " Liberty makes it auto-acknowledge, which acknowledges each message before its batch"
                        + " commits, so a crash loses it; use TRANSACTED_SESSION");
            }
            requirePresent(problems, "brokerOf", brokerOf);
            requirePresent(problems, "steps", steps);
            if (maxMessages < 1 || maxMessages > 10_000) {
                problems.add("maxMessages must be from 1 to 10000, is " + maxMessages);
            }
            if (maxWait == null || maxWait.isNegative() || maxWait.compareTo(Duration.ofMinutes(1)) > 0) {
                problems.add("maxWait must be from 0 to one minute, is " + maxWait);
            }
            if (messageIdProperty == null || messageIdProperty.isBlank()) {
                problems.add("messageIdProperty must name a message property, is '" + messageIdProperty + "'");
            }
            if (databaseAttempts < 1) {
                problems.add("databaseAttempts must be at least 1, is " + databaseAttempts);
            }
            if (parkAfterDeliveries < 1) {
                problems.add("parkAfterDeliveries must be at least 1, is " + parkAfterDeliveries);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(
                        "a batched receiver cannot be built: " + String.join("; ", problems));
            }
            return new BatchedReceiver(copy());
        }

        /** The settings as they are now: the receiver keeps them, whatever this builder is told later. */
        private Builder copy() {
            Builder copy = new Builder();
            copy.consumerName = consumerName;
            copy.previousConsumerNames = previousConsumerNames;
            copy.connectionFactory = connectionFactory;
            copy.user = user;
            copy.password = password;
            copy.queue = queue;
            copy.topic = topic;
            copy.subscriptionName = subscriptionName;
            copy.dataSource = dataSource;
            copy.userTransaction = userTransaction;
            copy.transactionThreads = transactionThreads;
            copy.processor = processor;
            copy.maxMessages = maxMessages;
            copy.maxWait = maxWait;
            copy.acknowledgement = acknowledgement;
            copy.messageIdProperty = messageIdProperty;
            copy.parkAfterDeliveries = parkAfterDeliveries;
            copy.databaseAttempts = databaseAttempts;
            copy.brokerOf = brokerOf;
            copy.steps = steps;
            copy.inFlight = inFlight;
            copy.crashGuard = crashGuard;
            copy.counted = counted;
            return copy;
        }

        private static void requirePresent(List<String> problems, String name, Object value) {
            if (Objects.isNull(value)) {
                problems.add(name + " is required");
            }
        }
    }
}
