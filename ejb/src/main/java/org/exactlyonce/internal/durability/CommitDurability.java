package org.exactlyonce.internal.durability;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** How one kind of database makes a commit durable, read from its settings. */
interface CommitDurability {

    /** The settings that decide it, each judged, on this connection's session and server. */
    List<DurabilitySetting> read(Connection connection) throws SQLException;

    /** The settings this database can report, whatever their values. */
    List<String> names();

    /** The reader for the database behind the connection; empty for one this engine does not know. */
    static Optional<CommitDurability> of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgresql")) {
            return Optional.of(new PostgresqlDurability());
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return Optional.of(new MariadbDurability());
        }
        if (product.contains("derby")) {
            return Optional.of(new DerbyDurability());
        }
        return Optional.empty();
    }

    /** Every setting any known database can report. */
    static List<String> allNames() {
        return List.of(new PostgresqlDurability(), new MariadbDurability(), new DerbyDurability()).stream()
                .flatMap(database -> database.names().stream())
                .toList();
    }

    /** The first column of the first row a query answers; empty when it answers no row. */
    static Optional<String> single(Connection connection, String query) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(query)) {
            return result.next() ? Optional.ofNullable(result.getString(1)) : Optional.empty();
        }
    }

    /** The value column of a {@code SHOW VARIABLES} or {@code SHOW STATUS} row; empty when none matches. */
    static Optional<String> shown(Connection connection, String show) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(show)) {
            return result.next() ? Optional.ofNullable(result.getString(2)) : Optional.empty();
        }
    }
}
