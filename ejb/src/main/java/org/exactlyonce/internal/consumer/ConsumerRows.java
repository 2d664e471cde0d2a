package org.exactlyonce.internal.consumer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.Optional;

/** The consumers' recorded destinations in plain JDBC, on the caller's connection and in its transaction. */
public final class ConsumerRows {

    private static final String INSERT =
            "INSERT INTO EO_CONSUMER (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT) VALUES (?, ?, ?, ?)";

    private static final String FIND =
            "SELECT DESTINATION_TYPE, DESTINATION, REGISTERED_AT FROM EO_CONSUMER WHERE CONSUMER = ?";

    private ConsumerRows() {}

    /** Records the consumer's destination; a unique violation when one is recorded already. */
    public static void insert(Connection connection, ConsumerDestination destination) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, destination.consumer());
            insert.setString(2, destination.kind().name());
            insert.setString(3, destination.destination());
            insert.setTimestamp(4, Timestamp.valueOf(destination.registeredAt()));
            insert.executeUpdate();
        }
    }

    public static Optional<ConsumerDestination> find(Connection connection, String consumer) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(FIND)) {
            select.setString(1, consumer);
            try (ResultSet found = select.executeQuery()) {
                return found.next()
                        ? Optional.of(new ConsumerDestination(
                                consumer,
                                ConsumerDestination.Kind.valueOf(found.getString(1)),
                                found.getString(2),
                                found.getTimestamp(3).toLocalDateTime().toInstant(ZoneOffset.UTC)))
                        : Optional.empty();
            }
        }
    }
}
