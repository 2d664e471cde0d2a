package org.exactlyonce.admin.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the database answers and the processed-ID table has its primary key on
 * {@code (CONSUMER, MESSAGE_ID)}. Without that key nothing stops a duplicate, so a server whose table
 * lacks it must not be sent traffic.
 */
@Readiness
@ApplicationScoped
public class ProcessedIdTableReadiness implements HealthCheck {

    static final String TABLE = "EO_PROCESSED_MESSAGE";
    static final Set<String> PRIMARY_KEY = Set.of("CONSUMER", "MESSAGE_ID");

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        try (Connection connection = dataSource.getConnection()) {
            Set<String> primaryKey = primaryKeyOf(connection.getMetaData());
            Optional<String> problem = problemWith(primaryKey);
            return HealthCheckResponse.named("exactly-once-processed-ids")
                    .status(problem.isEmpty())
                    .withData("table", TABLE)
                    .withData("primaryKey", String.join(",", primaryKey))
                    .withData("problem", problem.orElse("none"))
                    .build();
        } catch (SQLException e) {
            return HealthCheckResponse.named("exactly-once-processed-ids")
                    .down()
                    .withData("problem", "the database does not answer: " + e.getMessage())
                    .build();
        }
    }

    /** What is wrong with the table's primary key, found as the given columns; empty when nothing. */
    static Optional<String> problemWith(Set<String> primaryKey) {
        if (primaryKey.isEmpty()) {
            return Optional.of("table " + TABLE + " is missing or has no primary key: apply src/ddl for your database");
        }
        if (!primaryKey.equals(PRIMARY_KEY)) {
            return Optional.of("the primary key of " + TABLE + " is " + primaryKey + ", not "
                    + new TreeSet<>(PRIMARY_KEY) + ": duplicates would not be detected");
        }
        return Optional.empty();
    }

    /** Databases fold unquoted names differently (PostgreSQL to lower case), so both spellings are asked. */
    private static Set<String> primaryKeyOf(DatabaseMetaData metadata) throws SQLException {
        Set<String> columns = new TreeSet<>();
        for (String table : Set.of(TABLE, TABLE.toLowerCase(java.util.Locale.ROOT))) {
            try (ResultSet keys = metadata.getPrimaryKeys(null, null, table)) {
                while (keys.next()) {
                    columns.add(keys.getString("COLUMN_NAME").toUpperCase(java.util.Locale.ROOT));
                }
            }
        }
        return columns;
    }
}
