package org.exactlyonce.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import org.apache.derby.jdbc.EmbeddedDataSource;

/** A fresh in-memory Derby database with the engine's tables, as {@code src/ddl/derby.sql} creates them. */
public final class EngineTables {

    private EngineTables() {}

    /** A new database of its own, named after the test, with the engine's tables and nothing in them. */
    public static EmbeddedDataSource inNewDerby(String name) throws IOException, SQLException {
        EmbeddedDataSource database = new EmbeddedDataSource();
        database.setDatabaseName("memory:" + name + "-" + System.nanoTime());
        database.setCreateDatabase("create");
        try (Connection connection = database.getConnection();
                Statement ddl = connection.createStatement()) {
            for (String statement : statements()) {
                ddl.execute(statement);
            }
        }
        return database;
    }

    /** Parks a message as far as the look-ups at parked messages read it: its consumer and broker message ID. */
    public static void park(Connection connection, String consumer, String jmsMessageId) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO EO_PARKED_MESSAGE (CONSUMER,"
                + " JMS_MESSAGE_ID, REASON, DETAIL, BODY_TYPE, BODY_PREVIEW, HEADERS, PROPERTIES, ATTEMPTS,"
                + " PARKED_AT) VALUES (?, ?, 'KEEPS_FAILING', 'failed', 'TEXT', '', ?, ?, 3, ?)")) {
            insert.setString(1, consumer);
            insert.setString(2, jmsMessageId);
            insert.setBytes(3, new byte[0]);
            insert.setBytes(4, new byte[0]);
            insert.setTimestamp(5, new Timestamp(0));
            insert.executeUpdate();
        }
    }

    private static List<String> statements() throws IOException {
        StringBuilder sql = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("../src/ddl/derby.sql"))) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        return List.of(sql.toString().split(";")).stream()
                .map(String::strip)
                .filter(statement -> !statement.isEmpty())
                .toList();
    }
}
