package org.exactlyonce.internal.consumer;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.exactlyonce.internal.processed.SqlStates;

/** The destinations consumers read, as the database records them; each write a transaction of its own. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ConsumerDestinations {

    /** The persistence unit's data source. */
    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    @Resource
    private SessionContext context;

    /**
     * Records the destination a consumer reads, unless one is recorded already. Plain JDBC, as the
     * processed IDs are inserted: the first deliveries of a consumer race to record it, and the loser's
     * unique violation is an outcome, which the persistence provider would log as a warning.
     *
     * @return the destination recorded for the consumer, which may be another one; empty when another
     *     server or delivery recorded one at the same moment, which {@link #find} then reads
     */
    public Optional<ConsumerDestination> register(ConsumerDestination delivered) throws SQLException {
        Optional<ConsumerDestination> recorded = find(delivered.consumer());
        if (recorded.isPresent()) {
            return recorded;
        }
        try (Connection connection = database.getConnection()) {
            ConsumerRows.insert(connection, delivered);
            return Optional.of(delivered);
        } catch (SQLException e) {
            context.setRollbackOnly(); // PostgreSQL has aborted the transaction: no commit to try
            if (SqlStates.isUniqueViolation(e)) {
                return Optional.empty();
            }
            throw e; // checked, so the container would commit without the line above
        }
    }

    /**
     * Moves what a consumer's previous name holds to the consumer ({@link ConsumerRows#adopt}).
     *
     * @return what moved; empty when the previous name reads another destination
     */
    public Optional<ConsumerRows.Adoption> adopt(String previous, ConsumerDestination consumer) throws SQLException {
        try (Connection connection = database.getConnection()) {
            return ConsumerRows.adopt(connection, previous, consumer);
        } catch (SQLException e) {
            context.setRollbackOnly();
            throw e;
        }
    }

    /**
     * The destination recorded for a consumer, read as {@link #register} writes it: by its columns, so
     * that a table created before {@code ACKNOWLEDGED_IDS} (which finding the entity would read) works.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ConsumerDestination> find(String consumer) {
        try (Connection connection = database.getConnection()) {
            return ConsumerRows.find(connection, consumer);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "the database did not say which destination " + consumer + " reads: " + e, e);
        }
    }
}
