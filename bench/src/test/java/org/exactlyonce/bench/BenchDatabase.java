package org.exactlyonce.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;

/** The benchmark's PostgreSQL database: what the consumers booked, and the processed-ID table's size. */
final class BenchDatabase {

    private final String url;

    BenchDatabase(String url) {
        this.url = url;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, "postgres", "");
    }

    /** How many credits the account has, and when its first and last were booked. */
    record Bookings(long count, Instant first, Instant last) {

        /** Credits booked per second between the first and the last booking. */
        double perSecond() {
            double seconds = (last.toEpochMilli() - first.toEpochMilli()) / 1000.0;
            return (count - 1) / Math.max(seconds, 0.001);
        }
    }

    Bookings bookings(String account) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT COUNT(*), MIN(BOOKED_AT), MAX(BOOKED_AT) FROM LEDGER_CREDIT WHERE ACCOUNT = ?")) {
            query.setString(1, account);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return new Bookings(
                        row.getLong(1),
                        utc(row.getObject(2, LocalDateTime.class)),
                        utc(row.getObject(3, LocalDateTime.class)));
            }
        }
    }

    /** When each of the account's credits was booked, by message ID. */
    Map<String, Instant> bookingTimes(String account) throws SQLException {
        Map<String, Instant> times = new HashMap<>();
        try (Connection connection = connect();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT MESSAGE_ID, BOOKED_AT FROM LEDGER_CREDIT WHERE ACCOUNT = ?")) {
            query.setString(1, account);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    times.put(rows.getString(1), utc(rows.getObject(2, LocalDateTime.class)));
                }
            }
        }
        return times;
    }

    /** Empties the processed-ID table, so that a run starts from the same table. */
    void emptyProcessedIds() throws SQLException {
        execute("TRUNCATE EO_PROCESSED_MESSAGE");
        forgetKeptCounts();
    }

    /**
     * Adds IDs of the exactly-once consumer, acknowledged at the given time: recently, they stay (a
     * full table); older than the dedup window, the next purge deletes them.
     */
    void addProcessedIds(int count, String prefix, Instant acknowledgedAt) throws SQLException {
        addIds(count, prefix, LocalDateTime.ofInstant(acknowledgedAt, ZoneOffset.UTC), null, 0);
    }

    /**
     * Adds IDs of the exactly-once consumer processed two days ago, as the given broker delivered them:
     * every hundredth unconfirmed, spread through the key space, the others acknowledged then, past
     * the dedup window.
     */
    void addPurgeableIds(int count, String broker) throws SQLException {
        addIds(count, "purgeable-", LocalDateTime.now(ZoneOffset.UTC).minusDays(2), broker, 100);
    }

    /** Processed and acknowledged at the given time, except every {@code unconfirmedEvery}th (none for 0). */
    private void addIds(int count, String prefix, LocalDateTime at, String broker, int unconfirmedEvery)
            throws SQLException {
        try (Connection connection = connect();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO EO_PROCESSED_MESSAGE"
                        + " (CONSUMER, MESSAGE_ID, JMS_MESSAGE_ID, PROCESSED_AT, BROKER, ACKNOWLEDGED_AT)"
                        // a JMS message ID of their own, as a delivery records it
                        + " SELECT 'org.exactlyonce.sample.ledger.LedgerConsumer', ? || g, 'ID:' || ? || g, ?, ?,"
                        + " CASE WHEN g % NULLIF(?, 0) = 0 THEN NULL ELSE ? END"
                        + " FROM generate_series(1, ?) g")) {
            insert.setString(1, prefix);
            insert.setString(2, prefix);
            insert.setObject(3, at);
            insert.setString(4, broker);
            insert.setInt(5, unconfirmedEvery);
            insert.setObject(6, at);
            insert.setInt(7, count);
            insert.executeUpdate();
        }
        forgetKeptCounts();
        execute("ANALYZE EO_PROCESSED_MESSAGE");
    }

    /** IDs written or deleted past the purge: its kept counts of acknowledged IDs are counted again. */
    private void forgetKeptCounts() throws SQLException {
        execute("UPDATE EO_CONSUMER SET ACKNOWLEDGED_IDS = NULL");
    }

    /** The broker the exactly-once consumer's processed IDs name, as its deliveries recorded it. */
    String brokerOfProcessedIds() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT BROKER FROM EO_PROCESSED_MESSAGE WHERE BROKER IS NOT NULL FETCH FIRST 1 ROWS ONLY")) {
            if (!rows.next()) {
                throw new IllegalStateException("no processed ID names its broker");
            }
            return rows.getString(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static Instant utc(LocalDateTime time) {
        return time == null ? null : time.toInstant(ZoneOffset.UTC);
    }
}
