package org.exactlyonce.processed;

import static org.exactlyonce.Internal.Reason.ANOTHER_FEATURE;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import javax.sql.DataSource;
import org.exactlyonce.Internal;

/**
 * Records a delivery's message ID, the one statement every delivery makes: in the caller's transaction,
 * the database's primary key decides whether this is the ID's first delivery, and the same statement
 * leaves out a broker message parked before (see {@link IdRows}). A plain CDI bean, not
 * an enterprise bean: it runs once per message, and an enterprise bean's container call cost the
 * benchmark's consumer a tenth of its own CPU time per message.
 */
@Internal(ANOTHER_FEATURE)
@ApplicationScoped
public class FirstDeliveries {

    /** The data source of the persistence unit, where the application's writes go too. */
    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    @Resource
    private TransactionSynchronizationRegistry transactions;

    private final Clock clock = Clock.systemUTC();

    private final IdRows idRows = new IdRows();

    /**
     * Inserts the ID in the caller's transaction, so that the primary key decides before any domain
     * write happens, unless this broker message is parked. Plain JDBC on the default data source:
     * inside a transaction the server hands out the connection the persistence context uses, so the ID
     * commits with the application's writes, and a duplicate's failed insert is not logged by the
     * persistence provider. No look-up first: a first delivery, the common case, costs this one
     * statement, which also asks the parked messages.
     *
     * @param broker the broker that delivered the message, whose view alone can confirm it gone;
     *     {@code null} when unknown, and then the ID is never confirmed
     * @return whether this is the first delivery of the ID, to be processed; when not, the transaction
     *     can only be rolled back: the message is parked ({@code ParkedMessages.wasParkedBefore}), or
     *     {@link ProcessedMessages#earlierDelivery} tells how the ID got there
     * @throws IllegalStateException outside a transaction, where the ID would commit on its own
     */
    public boolean record(String consumer, String messageId, Message message, String broker)
            throws JMSException, SQLException {
        if (transactions.getTransactionKey() == null) {
            throw new IllegalStateException("a message ID is recorded only in the transaction of its processing");
        }
        try (Connection connection = database.getConnection()) {
            return idRows.insert(connection, consumer, new IdRows.IdRow(messageId, message, broker), clock.instant());
        }
    }
}
