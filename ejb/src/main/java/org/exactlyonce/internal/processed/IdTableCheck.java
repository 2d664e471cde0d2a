package org.exactlyonce.internal.processed;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.exactlyonce.internal.durability.DurabilityGuard;
import org.exactlyonce.internal.durability.DurabilityGuard.NotDurable;

/**
 * Proves that the processed-ID table keeps apart IDs that differ only in case or accents, before any
 * delivery relies on it. A case- or accent-insensitive collation (MariaDB's default
 * {@code utf8mb4_general_ci}, a table that JPA generated there, a DBA's change) makes two distinct
 * messages one key: the second would be acknowledged as a duplicate and lost. Probe rows are inserted
 * and always rolled back. A table that merges them fails the deployment; a database that cannot be
 * asked at start is asked again before the first delivery.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
public class IdTableCheck {

    private static final Logger LOG = Logger.getLogger(IdTableCheck.class.getName());

    /** A name no consumer can have: consumer names never begin with a blank. */
    private static final String PROBE_CONSUMER = " exactly-once collation probe";

    /** IDs that a folding collation makes one: by case, by accent, by expansion. */
    private static final List<List<String>> DISTINCT_IDS =
            List.of(List.of("order-1", "ORDER-1"), List.of("e", "\u00e9"), List.of("ss", "\u00df"));

    private static final String INSERT =
            "INSERT INTO EO_PROCESSED_MESSAGE (CONSUMER, MESSAGE_ID, PROCESSED_AT) VALUES (?, ?, ?)";

    private static final String PURGE_INDEX = "EO_PROCESSED_MESSAGE_PURGE";

    private static final List<String> PURGE_COLUMNS = List.of("CONSUMER", "ACKNOWLEDGED_AT", "MESSAGE_ID");

    @Resource
    private UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    @EJB
    private ProcessedMessages processedMessages;

    @Inject
    private DurabilityGuard durability;

    private volatile boolean exact;

    @PostConstruct
    void checkAtStart() {
        try {
            ensureExact();
        } catch (UnusableSchema | NotDurable e) {
            throw e;
        } catch (Exception e) {
            LOG.warning(() -> "exactly-once could not check how the processed-ID table compares IDs;"
                    + " it checks again before the first delivery: " + e);
        }
    }

    /**
     * Returns once the table is known to compare IDs exactly, and the database to keep its commits.
     *
     * @throws UnusableSchema when it does not
     * @throws NotDurable when the database can take a commit back
     * @throws Exception when the database cannot be asked
     */
    public void ensureExact() throws Exception {
        if (!exact) {
            synchronized (this) {
                if (!exact) {
                    processedMessages.ping(); // a generated schema is created by the persistence unit's first use
                    probe();
                    requireCrashTable();
                    durability.requireDurable();
                    exact = true;
                    LOG.info("exactly-once: the processed-ID table compares message IDs exactly");
                    warnOfEarlierSchema();
                }
            }
        }
    }

    private void probe() throws Exception {
        transaction.begin();
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, PROBE_CONSUMER);
            insert.setTimestamp(3, Timestamp.valueOf(LocalDateTime.now()));
            for (List<String> ids : DISTINCT_IDS) {
                for (String id : ids) {
                    insertOrFail(insert, id, ids);
                }
            }
        } finally {
            transaction.rollback();
        }
    }

    /**
     * Refuses a schema that an earlier release's {@code src/ddl} created, without the table where the
     * crash guard counts the crashes a message caused: every delivery it suspects would fail.
     */
    private void requireCrashTable() throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT CRASHES, FAILURES, LAST_INTERRUPTED_AT FROM EO_INTERRUPTED_DELIVERY WHERE CONSUMER = ?")) {
            select.setString(1, PROBE_CONSUMER);
            select.executeQuery().close();
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("42")) { // no such table, or no such column
                throw new UnusableSchema("the table EO_INTERRUPTED_DELIVERY is missing or incomplete (" + e.getMessage()
                        + "): create it as src/ddl has it, for the database in use");
            }
            throw e;
        }
    }

    /**
     * Says at start what a table created by an older {@code src/ddl} lacks or keeps: without the purge's
     * index nothing is lost, but each purge run reads the whole table; the earlier index on the time alone
     * costs every insert and, beside the new one, PostgreSQL may still choose it and sort; without the
     * column for the acknowledged IDs' count, each run counts them.
     */
    private void warnOfEarlierSchema() {
        try (Connection connection = database.getConnection()) {
            if (!AcknowledgedCounts.haveTheirColumn(connection)) {
                LOG.warning("exactly-once: EO_CONSUMER has no ACKNOWLEDGED_IDS column, so every purge run counts"
                        + " each consumer's acknowledged IDs in EO_PROCESSED_MESSAGE. Add it as src/ddl has it:"
                        + " ALTER TABLE EO_CONSUMER ADD ACKNOWLEDGED_IDS BIGINT");
            }
            Map<String, List<String>> indexes = indexes(connection.getMetaData());
            if (!hasPurgeIndex(indexes)) {
                LOG.warning("exactly-once: EO_PROCESSED_MESSAGE has no index on (CONSUMER, ACKNOWLEDGED_AT,"
                        + " MESSAGE_ID), so every purge run reads the whole table. Create it as src/ddl does:"
                        + " CREATE INDEX " + PURGE_INDEX + " ON EO_PROCESSED_MESSAGE"
                        + " (CONSUMER, ACKNOWLEDGED_AT, MESSAGE_ID)");
            }
            indexesOnTheTimeAlone(indexes)
                    .forEach(index -> LOG.warning(() -> "exactly-once: EO_PROCESSED_MESSAGE keeps the index " + index
                            + " on ACKNOWLEDGED_AT alone, which the engine no longer reads: every insert updates"
                            + " it, and a purge may read it instead of " + PURGE_INDEX + ". Drop it: DROP INDEX "
                            + index + " (on MariaDB: DROP INDEX " + index + " ON EO_PROCESSED_MESSAGE)"));
        } catch (SQLException e) {
            LOG.warning(() -> "exactly-once could not read how its tables were created: " + e);
        }
    }

    /** The ID table's indexes by name, each with its columns in order, in upper case. */
    static Map<String, List<String>> indexes(DatabaseMetaData metaData) throws SQLException {
        Map<String, List<String>> columnsByIndex = new TreeMap<>();
        // PostgreSQL keeps unquoted names in lower case, Derby in upper case, MariaDB as written
        for (String table : List.of("EO_PROCESSED_MESSAGE", "eo_processed_message")) {
            try (ResultSet columns = metaData.getIndexInfo(null, null, table, false, false)) {
                while (columns.next()) {
                    String index = columns.getString("INDEX_NAME");
                    String column = columns.getString("COLUMN_NAME");
                    if (index != null && column != null) {
                        List<String> indexed = columnsByIndex.computeIfAbsent(index, i -> new ArrayList<>());
                        int position = columns.getShort("ORDINAL_POSITION");
                        while (indexed.size() < position) {
                            indexed.add("");
                        }
                        indexed.set(position - 1, column.toUpperCase(Locale.ROOT));
                    }
                }
            }
        }
        return columnsByIndex;
    }

    /** Whether an index begins with the purge's columns, whatever its name. */
    static boolean hasPurgeIndex(Map<String, List<String>> indexes) {
        return indexes.values().stream()
                .anyMatch(
                        columns -> columns.size() >= 3 && columns.subList(0, 3).equals(PURGE_COLUMNS));
    }

    /** The names of indexes on the acknowledgement's time alone, as src/ddl created before the purge's. */
    static List<String> indexesOnTheTimeAlone(Map<String, List<String>> indexes) {
        return indexes.entrySet().stream()
                .filter(index -> index.getValue().equals(List.of("ACKNOWLEDGED_AT")))
                .map(Map.Entry::getKey)
                .toList();
    }

    private static void insertOrFail(PreparedStatement insert, String id, List<String> distinct) throws SQLException {
        insert.setString(2, id);
        try {
            insert.executeUpdate();
        } catch (SQLException e) {
            if (SqlStates.isUniqueViolation(e)) {
                throw UnusableSchema.inexact(distinct);
            }
            throw e;
        }
    }

    /** The table's collation folds distinct IDs into one key. */
    static final class UnusableSchema extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        UnusableSchema(String why) {
            super("exactly-once cannot start: " + why);
        }

        static UnusableSchema inexact(List<String> distinct) {
            return new UnusableSchema("EO_PROCESSED_MESSAGE takes the distinct message IDs " + distinct
                    + " for one key, so the second message would be dropped as a duplicate. Its CONSUMER and"
                    + " MESSAGE_ID columns need a binary collation that keeps case, accents and trailing blanks"
                    + " apart: create the tables with src/ddl (MariaDB: utf8mb4_nopad_bin, PostgreSQL:"
                    + " COLLATE \"C\")");
        }
    }
}
