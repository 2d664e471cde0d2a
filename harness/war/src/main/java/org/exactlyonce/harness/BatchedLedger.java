package org.exactlyonce.harness;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.batch.BatchedReceiver;
import org.exactlyonce.batch.BatchedReceivers;
import org.exactlyonce.sample.ledger.CreditOrder;
import org.exactlyonce.sample.ledger.CreditOrders;
import org.exactlyonce.sample.ledger.Ledger;

/**
 * The ledger's booking through batched receivers: many credits per transaction, booked in plain JDBC
 * on the batch's connection, for the crash suite and the benchmark; and a subscriber to the credit
 * events that books each to {@code batched-<account>} through the sample's persistence context,
 * beside the message-driven subscribers (see {@link CreditSubscriber}). Faults reach them as they reach the sample's consumers, through the
 * protocol's events.
 */
@Startup
@Singleton
public class BatchedLedger {

    /** The consumer's name, which scopes its IDs. */
    static final String CONSUMER = "exactly-once-sample/ledger/BatchedLedger";

    /** The credit events' batched subscriber: a consumer of its own, through a shared durable subscription. */
    static final String SUBSCRIBER = "exactly-once-sample/ledger/BatchedCreditSubscriber";

    private static final String BOOK =
            "INSERT INTO LEDGER_CREDIT (MESSAGE_ID, ACCOUNT, AMOUNT, BOOKED_AT) VALUES (?, ?, ?, ?)";

    @Resource(lookup = TestQueues.BATCHED_CONNECTION_FACTORY)
    ConnectionFactory connectionFactory;

    @Resource(lookup = TestQueues.BATCHED_CREDITS)
    Queue credits;

    @Resource(lookup = TestQueues.CREDIT_EVENTS)
    Topic creditEvents;

    @Inject
    BatchedReceivers receivers;

    @Inject
    Ledger ledger;

    /** For a connection factory without a login of its own (WildFly's to a standalone Artemis). */
    @Inject
    @ConfigProperty(name = "harness.artemis.user")
    Optional<String> user;

    @Inject
    @ConfigProperty(name = "harness.artemis.password")
    Optional<String> password;

    private final List<BatchedReceiver> running = new ArrayList<>();

    /** One receiver of the credits, in batches of up to 100, and one of the credit events, from the start. */
    @PostConstruct
    void start() {
        run(1, 100);
        receivers.start(withLogin(receivers.builder())
                .consumerName(SUBSCRIBER)
                .connectionFactory(connectionFactory)
                .topic(creditEvents, "credit-events-batched")
                .processor((message, database) -> bookThroughJpa(message)));
    }

    /**
     * Stops the receivers that run, then starts {@code count} in their place, which take up to {@code
     * maxMessages} per batch; none pauses the batched ledger, as the benchmark does while it queues credits.
     */
    public void run(int count, int maxMessages) {
        running.forEach(BatchedReceiver::close);
        running.clear();
        for (int i = 0; i < count; i++) {
            running.add(receivers.start(withLogin(receivers.builder())
                    .consumerName(CONSUMER)
                    .connectionFactory(connectionFactory)
                    .queue(credits)
                    .maxMessages(maxMessages)
                    .processor((message, database) -> book(message, database, ""))));
        }
    }

    private BatchedReceiver.Builder withLogin(BatchedReceiver.Builder builder) {
        user.ifPresent(name -> builder.credentials(name, password.orElse(null)));
        return builder;
    }

    /**
     * A credit event booked through the sample's persistence context, which joins the batch's JTA
     * transaction: it commits with the batch's IDs, or rolls back with them.
     */
    private void bookThroughJpa(Message message) throws JMSException {
        CreditOrder order = CreditOrders.fromJson(message.getBody(String.class));
        ledger.book(new CreditOrder(order.messageId(), "batched-" + order.account(), order.amount()));
    }

    private static void book(Message message, Connection database, String accountPrefix)
            throws JMSException, SQLException {
        TestCredit credit = TestCredit.in(message).orElseThrow(() -> new InvalidMessageException("not a credit order"));
        try (PreparedStatement book = database.prepareStatement(BOOK)) {
            book.setString(1, credit.messageId());
            book.setString(2, accountPrefix + credit.account());
            book.setLong(3, credit.amount());
            book.setTimestamp(4, Timestamp.valueOf(LocalDateTime.now(ZoneOffset.UTC)));
            book.executeUpdate();
        }
    }
}
