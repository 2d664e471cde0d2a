package org.exactlyonce.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.transaction.UserTransaction;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ProtocolStep;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.batch.BatchedReceiver.Acknowledgement;
import org.exactlyonce.testing.EngineTables;
import org.exactlyonce.testing.InJvmBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The batched receiver's crash matrix, batch-wide, with real parts in the test's own JVM: an Artemis
 * broker and a Derby database with the engine's tables. A crash is an {@link Error} thrown at a point
 * of the protocol, which ends the receiver as a killed process would end it: its JMS session closes
 * without a commit, its database transaction rolls back. Each message's effect is a row in a table
 * without a key, so a message processed twice shows as two rows.
 */
class BatchedReceiverTest {

    private static final String CONSUMER = "batched-test";

    @RegisterExtension
    static final InJvmBroker BROKER = new InJvmBroker();

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<BatchedReceiver> receivers = new ArrayList<>();
    private final Set<Connection> transactions = Collections.newSetFromMap(new IdentityHashMap<>());

    private EmbeddedDataSource database;
    private JMSContext jms;
    private Queue queue;

    @BeforeEach
    void createTablesAndQueue() throws Exception {
        database = EngineTables.inNewDerby("batched");
        try (Connection connection = database.getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE TABLE EFFECT (MESSAGE_ID VARCHAR(100) NOT NULL, BODY VARCHAR(100) NOT NULL,"
                    + " DELIVERY INTEGER NOT NULL)");
        }
        jms = BROKER.connections().createContext();
        queue = jms.createQueue("batched-" + System.nanoTime());
    }

    @AfterEach
    void stopReceivers() {
        receivers.forEach(BatchedReceiver::close);
        threads.shutdownNow();
        jms.close();
    }

    @Test
    void aBatchIsProcessedInOneTransactionEachMessageOnce() throws Exception {
        sendCredits(250);

        start(receiver().maxMessages(100).maxWait(Duration.ofSeconds(1)));

        awaitEffects(250);
        assertEachProcessedOnce(250);
        assertEquals(3, transactions.size(), "250 messages in batches of up to 100");
        assertEquals(250, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = '" + CONSUMER + "'"));
        awaitQueueEmpty();
    }

    @Test
    void aCrashBeforeTheDatabaseCommitRedeliversTheBatchWhichIsProcessedOnce() throws Exception {
        sendCredits(50);

        assertCrashes(start(receiver().maxWait(Duration.ofMillis(300)).steps(crashAt(Step.BEFORE_COMMIT))));
        assertEquals(0, count("SELECT COUNT(*) FROM EFFECT"), "the batch's writes rolled back");
        assertEquals(0, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE"), "and its IDs");

        start(receiver());
        awaitEffects(50);
        assertEachProcessedOnce(50);
        awaitQueueEmpty();
    }

    @Test
    void aCrashAfterTheDatabaseCommitHasEveryRedeliveredMessageDropped() throws Exception {
        sendCredits(50);

        assertCrashes(start(receiver().maxWait(Duration.ofMillis(300)).steps(crashAt(Step.AFTER_COMMIT))));
        assertEachProcessedOnce(50);

        start(receiver());
        send("after-the-crash", "1");
        awaitEffects(51); // the redelivered 50 are ahead of it on the queue
        assertEachProcessedOnce(51);
        awaitQueueEmpty();
    }

    /** In the server, a receiver whose run a failure ended runs again: never lost to one failure. */
    @Test
    void aReceiverThatAFailureStoppedRunsAgainInTheServer() throws Exception {
        sendCredits(50);
        BatchedReceiver receiver = receiver()
                .maxWait(Duration.ofMillis(300))
                .steps(crashAt(Step.AFTER_COMMIT))
                .build();
        receivers.add(receiver);

        threads.submit(() -> BatchedReceivers.runUntilClosed(receiver, Duration.ofMillis(100)));

        awaitEffects(50);
        await(receiver::isRunning, "the receiver running again");
        send("after-the-restart", "1");
        awaitEffects(51); // behind the redelivered 50, each dropped
        assertEachProcessedOnce(51);
        receiver.close();
        assertFalse(receiver.isRunning());
    }

    @Test
    void withClientAcknowledgeACrashAfterTheCommitHasEveryRedeliveredMessageDropped() throws Exception {
        sendCredits(50);

        assertCrashes(start(receiver()
                .acknowledgement(Acknowledgement.CLIENT_ACKNOWLEDGE)
                .maxWait(Duration.ofMillis(300))
                .steps(crashAt(Step.AFTER_COMMIT))));
        start(receiver().acknowledgement(Acknowledgement.CLIENT_ACKNOWLEDGE));
        send("after-the-crash", "1");

        awaitEffects(51);
        assertEachProcessedOnce(51);
        awaitQueueEmpty();
    }

    @Test
    void receiversOfOneSubscriptionShareItsMessagesAndTheBrokerKeepsWhatIsPublishedWhileNoneRuns() throws Exception {
        Topic topic = jms.createTopic("events-" + System.nanoTime());
        String subscription = topic.getTopicName() + "-ledger"; // a broker's subscription names are its own
        jms.createSharedDurableConsumer(topic, subscription).close(); // it exists before any receiver
        IntStream.rangeClosed(1, 200).forEach(i -> publish(topic, "event-" + i, String.valueOf(i)));

        start(receiver().queue(null).topic(topic, subscription));
        start(receiver().queue(null).topic(topic, subscription));

        awaitEffects(200);
        assertEachProcessedOnce(200);
        assertEquals(
                List.of("TOPIC " + topic.getTopicName()),
                strings("SELECT DESTINATION_TYPE || ' ' || DESTINATION FROM EO_CONSUMER"));
    }

    @Test
    void onATopicACrashAfterTheDatabaseCommitHasEveryRedeliveredMessageDropped() throws Exception {
        Topic topic = jms.createTopic("events-" + System.nanoTime());
        String subscription = topic.getTopicName() + "-ledger";
        jms.createSharedDurableConsumer(topic, subscription).close();
        IntStream.rangeClosed(1, 50).forEach(i -> publish(topic, "event-" + i, String.valueOf(i)));

        assertCrashes(start(receiver()
                .queue(null)
                .topic(topic, subscription)
                .maxWait(Duration.ofMillis(300))
                .steps(crashAt(Step.AFTER_COMMIT))));
        assertEachProcessedOnce(50);

        start(receiver().queue(null).topic(topic, subscription));
        publish(topic, "after-the-crash", "1");
        awaitEffects(51);
        assertEachProcessedOnce(51);
    }

    @Test
    void aMessageThatKeepsFailingIsParkedAndTheRestOfItsBatchProcessedOnce() throws Exception {
        receiveNineCreditsAndAPoison(() -> {
            throw new IllegalStateException("cannot book it");
        });

        awaitQueueEmpty();
    }

    /** An Error from the processor fails its message, not the receiver, which goes on with the others. */
    @Test
    void aMessageWhoseProcessingThrowsAnErrorIsParkedAndTheReceiverLives() throws Exception {
        Future<?> receiving = receiveNineCreditsAndAPoison(() -> {
            throw new StackOverflowError("recursed for ever");
        });

        send("after-the-error", "1");
        awaitEffects(10);
        assertFalse(receiving.isDone(), "the receiver runs on");
        awaitQueueEmpty();
    }

    /** Nine credits and a poison message, whose processing fails so: the poison parked after 3 deliveries. */
    private Future<?> receiveNineCreditsAndAPoison(Runnable failing) throws Exception {
        sendCredits(9);
        send("poison", "1");

        Future<?> receiving = start(receiver()
                .parkAfterDeliveries(3)
                .maxWait(Duration.ofMillis(300))
                .processor((message, db) -> {
                    if ("poison".equals(message.getStringProperty("messageId"))) {
                        failing.run();
                    }
                    credit(message, db);
                }));

        awaitParked(1);
        assertEachProcessedOnce(9);
        assertEquals(
                List.of("poison KEEPS_FAILING 3"),
                strings(
                        "SELECT MESSAGE_ID || ' ' || REASON || ' ' || CAST(ATTEMPTS AS CHAR(2)) FROM EO_PARKED_MESSAGE"));
        return receiving;
    }

    /**
     * A parked message whose acknowledgement a crash lost, delivered again by a broker that restarted
     * without its delivery count (Artemis, for a paged message): counted as a first delivery, it is
     * acknowledged and never processed as well.
     */
    @Test
    void aParkedMessageThatComesBackCountedAsAFirstDeliveryIsNotProcessed() throws Exception {
        send("credit-1", "1");
        TextMessage parkedBefore = jms.createTextMessage("2");
        parkedBefore.setStringProperty("messageId", "credit-2");
        jms.createProducer().send(queue, parkedBefore);
        send("credit-3", "3");
        update("INSERT INTO EO_PARKED_MESSAGE (CONSUMER, MESSAGE_ID, JMS_MESSAGE_ID, REASON, DETAIL, BODY_TYPE,"
                + " BODY_PREVIEW, HEADERS, PROPERTIES, ATTEMPTS, PARKED_AT) VALUES ('" + CONSUMER + "', 'credit-2', '"
                + parkedBefore.getJMSMessageID() + "', 'KEEPS_FAILING', 'failed', 'TEXT', '2', CAST(X'' AS BLOB),"
                + " CAST(X'' AS BLOB), 3, CURRENT_TIMESTAMP)");

        start(receiver().maxWait(Duration.ofMillis(300)));

        awaitEffects(2);
        awaitQueueEmpty();
        assertEquals(List.of("credit-1", "credit-3"), strings("SELECT MESSAGE_ID FROM EFFECT ORDER BY MESSAGE_ID"));
    }

    @Test
    void aBatchAsksTheParkedMessagesInOneQuery() throws Exception {
        sendCredits(10);
        List<String> statements = Collections.synchronizedList(new ArrayList<>());

        start(receiver()
                .maxWait(Duration.ofMillis(500))
                .dataSource(new DownOrRecording(database, () -> false, statements)));

        awaitEffects(10);
        assertEachProcessedOnce(10);
        assertTrue(transactions.size() < 10, "messages shared a batch: " + transactions.size() + " batches");
        assertEquals(
                transactions.size(),
                statements.stream()
                        .filter(sql -> sql.contains("FROM EO_PARKED_MESSAGE"))
                        .count(),
                "one look-up per batch, batches: " + transactions.size());
    }

    @Test
    void anInvalidMessageIsParkedAtOnceAndTheOthersProcessed() throws Exception {
        sendCredits(3);
        jms.createProducer().send(queue, "no ID at all");
        send("refused", "1");

        start(receiver().maxWait(Duration.ofMillis(300)).processor((message, db) -> {
            if ("refused".equals(message.getStringProperty("messageId"))) {
                throw new InvalidMessageException("not a credit");
            }
            credit(message, db);
        }));

        awaitParked(2);
        assertEachProcessedOnce(3);
        assertEquals(
                List.of("INVALID_PAYLOAD 1", "MISSING_ID 1"),
                strings("SELECT REASON || ' ' || CAST(ATTEMPTS AS CHAR(2)) FROM EO_PARKED_MESSAGE ORDER BY REASON"));
    }

    @Test
    void aMessageParkedInABatchThatIsHandedBackIsNotProcessedOnItsRedelivery() throws Exception {
        send("invalid-once", "1");
        send("fails-once", "2");

        start(receiver().maxWait(Duration.ofMillis(300)).processor((message, db) -> {
            boolean first = message.getIntProperty("JMSXDeliveryCount") == 1;
            if (first && "invalid-once".equals(message.getStringProperty("messageId"))) {
                throw new InvalidMessageException("not yet");
            }
            if (first && "fails-once".equals(message.getStringProperty("messageId"))) {
                throw new IllegalStateException("try again"); // hands the batch back
            }
            credit(message, db);
        }));

        awaitEffects(1);
        awaitQueueEmpty();
        assertEquals(List.of("fails-once"), strings("SELECT MESSAGE_ID FROM EFFECT"));
        assertEquals(
                List.of("invalid-once INVALID_PAYLOAD"),
                strings("SELECT MESSAGE_ID || ' ' || REASON FROM EO_PARKED_MESSAGE"));
    }

    @Test
    void anIdReusedWithAnotherPayloadIsParkedAndTheFirstMessageKeptItsEffect() throws Exception {
        start(receiver());
        send("credit-1", "10");
        awaitEffects(1);

        send("credit-1", "99");
        awaitParked(1);

        assertEquals(List.of("credit-1 10"), strings("SELECT MESSAGE_ID || ' ' || BODY FROM EFFECT"));
        assertEquals(List.of("ID_REUSED"), strings("SELECT REASON FROM EO_PARKED_MESSAGE"));
    }

    @Test
    void aDatabaseThatDoesNotAnswerHoldsTheBatchAndParksNothing() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        start(receiver().dataSource(new DownOrRecording(database, down::get, new ArrayList<>())));
        sendCredits(5);

        Thread.sleep(1_500);
        assertEquals(0, count("SELECT COUNT(*) FROM EFFECT"));
        down.set(false);

        awaitEffects(5);
        assertEachProcessedOnce(5);
        assertEquals(
                List.of("1"), strings("SELECT DISTINCT CAST(DELIVERY AS CHAR(2)) FROM EFFECT"), "never redelivered");
        assertEquals(0, count("SELECT COUNT(*) FROM EO_PARKED_MESSAGE"));
    }

    @Test
    void theIdsOfABatchAreInFlightFromBeforeTheirInsertUntilTheBatchEnds() throws Exception {
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        List<Set<String>> seenWhileProcessing = new CopyOnWriteArrayList<>();
        sendCredits(20);

        start(receiver()
                .maxWait(Duration.ofMillis(300))
                .inFlight(new BatchedReceiver.InFlight() {
                    @Override
                    public void begin(String consumer, String messageId) {
                        inFlight.add(messageId);
                    }

                    @Override
                    public void end(String consumer, String messageId) {
                        inFlight.remove(messageId);
                    }
                })
                .steps(step -> {
                    if (step.step() == Step.BEFORE_PROCESS) {
                        seenWhileProcessing.add(Set.copyOf(inFlight));
                    }
                }));

        awaitEffects(20);
        await(inFlight::isEmpty, "none left in flight");
        assertTrue(seenWhileProcessing.stream().allMatch(seen -> seen.size() == 20), "the whole batch in flight");
    }

    @Test
    void aConsumerNameRecordedForAnotherQueueIsRefused() throws Exception {
        update("INSERT INTO EO_CONSUMER (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT)" + " VALUES ('"
                + CONSUMER + "', 'QUEUE', 'orders', CURRENT_TIMESTAMP)");

        ExecutionException refused =
                assertThrows(ExecutionException.class, () -> start(receiver()).get(10, TimeUnit.SECONDS));

        assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertTrue(
                refused.getCause().getMessage().contains("queue orders"),
                refused.getCause().getMessage());
    }

    /** A receiver renamed: the IDs its previous name processed still count. */
    @Test
    void aRenamedReceiverDropsWhatItsPreviousNameProcessed() throws Exception {
        update("INSERT INTO EO_CONSUMER (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT) VALUES"
                + " ('batched-before', 'QUEUE', '" + queue.getQueueName() + "', CURRENT_TIMESTAMP)");
        update("INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT) VALUES"
                + " ('batched-before', 'credit-1', CURRENT_TIMESTAMP)");
        sendCredits(2);

        start(receiver().previousConsumerNames("batched-before"));

        awaitEffects(1);
        awaitQueueEmpty();
        assertEquals(List.of("credit-2"), strings("SELECT MESSAGE_ID FROM EFFECT"), "credit-1 processed before");
        assertEquals(2, count("SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE WHERE CONSUMER = '" + CONSUMER + "'"));
        assertEquals(0, count("SELECT COUNT(*) FROM EO_CONSUMER WHERE CONSUMER = 'batched-before'"));
    }

    /** Open Liberty turns client acknowledgement into auto-acknowledgement inside the server. */
    @Test
    void aReceiverInAServerRefusesClientAcknowledgement() {
        UserTransaction serverTransaction = (UserTransaction) Proxy.newProxyInstance(
                UserTransaction.class.getClassLoader(),
                new Class<?>[] {UserTransaction.class},
                (proxy, method, args) -> {
                    throw new UnsupportedOperationException(method.getName());
                });

        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> receiver()
                        .acknowledgement(BatchedReceiver.Acknowledgement.CLIENT_ACKNOWLEDGE)
                        .serverTransactions(serverTransaction, threads)
                        .build());

        assertTrue(
                refused.getMessage().contains("CLIENT_ACKNOWLEDGE works outside a server only"), refused.getMessage());
    }

    @Test
    void aReceiverReadsAQueueOrATopicThroughANamedSubscription() {
        Topic topic = jms.createTopic("events");

        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> receiver().topic(topic, "ledger").build())
                .getMessage()
                .contains("a queue and a topic were given"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> receiver().queue(null).topic(topic, " ").build())
                .getMessage()
                .contains("subscriptionName"));
    }

    @Test
    void aReceiverWithUnusableSettingsIsNotBuiltAndEverySettingIsNamed() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> BatchedReceiver.builder()
                        .consumerName(" padded")
                        .maxMessages(0)
                        .maxWait(Duration.ofMinutes(2))
                        .parkAfterDeliveries(0)
                        .messageIdProperty("")
                        .build());

        for (String setting : List.of(
                "consumerName",
                "connectionFactory",
                "queue",
                "dataSource",
                "processor",
                "maxMessages",
                "maxWait",
                "parkAfterDeliveries",
                "messageIdProperty")) {
            assertTrue(refused.getMessage().contains(setting), setting + " in: " + refused.getMessage());
        }
    }

    private BatchedReceiver.Builder receiver() {
        return BatchedReceiver.builder()
                .consumerName(CONSUMER)
                .connectionFactory(BROKER.connections())
                .queue(queue)
                .dataSource(database)
                .processor(this::credit);
    }

    private Future<?> start(BatchedReceiver.Builder builder) {
        BatchedReceiver receiver = builder.build();
        receivers.add(receiver);
        return threads.submit(receiver);
    }

    /** The effect of a message: a row with its ID, body and delivery, in the batch's transaction. */
    private void credit(Message message, Connection db) throws JMSException, SQLException {
        transactions.add(db);
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO EFFECT VALUES (?, ?, ?)")) {
            insert.setString(1, message.getStringProperty("messageId"));
            insert.setString(2, message.getBody(String.class));
            insert.setInt(3, message.getIntProperty("JMSXDeliveryCount"));
            insert.executeUpdate();
        }
    }

    /** Fails the receiver as a crash would, the first time the step is reached. */
    private static Consumer<ProtocolStep> crashAt(Step step) {
        AtomicBoolean crashed = new AtomicBoolean();
        return reached -> {
            if (reached.step() == step && crashed.compareAndSet(false, true)) {
                throw new Crash();
            }
        };
    }

    private static void assertCrashes(Future<?> receiver) throws Exception {
        ExecutionException crashed = assertThrows(ExecutionException.class, () -> receiver.get(30, TimeUnit.SECONDS));
        assertInstanceOf(Crash.class, crashed.getCause());
    }

    private void sendCredits(int count) {
        IntStream.rangeClosed(1, count).forEach(i -> send("credit-" + i, String.valueOf(i)));
    }

    private void send(String messageId, String body) {
        jms.createProducer().setProperty("messageId", messageId).send(queue, body);
    }

    private void publish(Topic topic, String messageId, String body) {
        jms.createProducer().setProperty("messageId", messageId).send(topic, body);
    }

    private void assertEachProcessedOnce(int messages) throws SQLException {
        Map<String, Integer> effects = new TreeMap<>();
        try (Connection connection = database.getConnection();
                ResultSet rows = connection
                        .createStatement()
                        .executeQuery("SELECT MESSAGE_ID, COUNT(*) FROM EFFECT GROUP BY MESSAGE_ID")) {
            while (rows.next()) {
                effects.put(rows.getString(1), rows.getInt(2));
            }
        }
        assertEquals(messages, effects.size(), "messages with an effect");
        effects.forEach((id, times) -> assertEquals(1, times, id + " processed " + times + " times"));
    }

    private void awaitEffects(int rows) throws Exception {
        await(() -> count("SELECT COUNT(*) FROM EFFECT") >= rows, rows + " effects");
    }

    private void awaitParked(int rows) throws Exception {
        await(() -> count("SELECT COUNT(*) FROM EO_PARKED_MESSAGE") >= rows, rows + " parked");
    }

    private void awaitQueueEmpty() throws Exception {
        await(() -> !jms.createBrowser(queue).getEnumeration().hasMoreElements(), "the queue empty");
    }

    private static void await(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!check.holds()) {
            assertFalse(System.nanoTime() > deadline, "waited 30 s for " + what);
            Thread.sleep(50);
        }
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = database.getConnection();
                ResultSet count = connection.createStatement().executeQuery(sql)) {
            count.next();
            return count.getLong(1);
        }
    }

    private List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = database.getConnection();
                ResultSet rows = connection.createStatement().executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1).strip());
            }
        }
        return values;
    }

    private void update(String sql) throws SQLException {
        try (Connection connection = database.getConnection()) {
            connection.createStatement().executeUpdate(sql);
        }
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    /** What a killed receiver leaves: nothing of its thread, and no commit. */
    private static final class Crash extends Error {}

    /**
     * A database that refuses connections, as one that is down does, while the switch says so; and
     * records the SQL of every statement prepared on its connections.
     */
    private record DownOrRecording(DataSource database, Supplier<Boolean> down, List<String> statements)
            implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            if (down.get()) {
                throw new SQLException("the database is down", "08001");
            }
            Connection connection = database.getConnection();
            return (Connection) Proxy.newProxyInstance(
                    Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("prepareStatement")) {
                            statements.add((String) args[0]);
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
