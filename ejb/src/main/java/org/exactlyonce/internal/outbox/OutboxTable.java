package org.exactlyonce.internal.outbox;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.message.MessageCopies.Copy;
import org.exactlyonce.internal.processed.SqlStates;
import org.exactlyonce.internal.processed.StoredTimes;

/**
 * The outbox's two tables, by plain JDBC on the default data source: the messages waiting to be sent
 * ({@code EO_OUTBOX_MESSAGE}), and one lease per destination ({@code EO_OUTBOX_LEASE}) that lets one
 * relay at a time send a destination's messages, in order. A write joins the caller's transaction;
 * the relay's statements each commit on their own.
 */
@ApplicationScoped
public class OutboxTable {

    /** Longest failure reason kept; a longer one is cut. */
    static final int MAX_FAILURE_LENGTH = 2000;

    private static final String INSERT = "INSERT INTO EO_OUTBOX_MESSAGE (MESSAGE_ID, DESTINATION_TYPE, DESTINATION,"
            + " BODY_TYPE, BODY, BODY_PREVIEW, HEADERS, PROPERTIES, WRITTEN_AT, ATTEMPTS)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)";
    private static final String DESTINATIONS = "SELECT DISTINCT DESTINATION_TYPE, DESTINATION FROM EO_OUTBOX_MESSAGE";
    private static final String NEXT =
            "SELECT ID, MESSAGE_ID, BODY_TYPE, BODY, HEADERS, PROPERTIES FROM EO_OUTBOX_MESSAGE"
                    + " WHERE DESTINATION_TYPE = ? AND DESTINATION = ? ORDER BY ID";
    private static final String DELETE = "DELETE FROM EO_OUTBOX_MESSAGE WHERE ID = ?";
    private static final String FAILED =
            "UPDATE EO_OUTBOX_MESSAGE SET ATTEMPTS = ATTEMPTS + 1, LAST_FAILURE = ?, FAILED_AT = ? WHERE ID = ?";
    private static final String FIGURES = "SELECT DESTINATION_TYPE, DESTINATION, COUNT(*), MIN(WRITTEN_AT),"
            + " SUM(CASE WHEN ATTEMPTS > 0 THEN 1 ELSE 0 END) FROM EO_OUTBOX_MESSAGE GROUP BY DESTINATION_TYPE, DESTINATION";
    private static final String FAILING = "SELECT MESSAGE_ID, DESTINATION_TYPE, DESTINATION, BODY_PREVIEW, WRITTEN_AT,"
            + " ATTEMPTS, LAST_FAILURE, FAILED_AT FROM EO_OUTBOX_MESSAGE WHERE ATTEMPTS > 0 ORDER BY ID";
    private static final String DISCARD = "DELETE FROM EO_OUTBOX_MESSAGE WHERE MESSAGE_ID = ?";
    private static final String RENEW = "UPDATE EO_OUTBOX_LEASE SET HOLDER = ?, HELD_UNTIL = ? WHERE DESTINATION = ?"
            + " AND (HOLDER = ? OR HELD_UNTIL < ?)";
    private static final String LEASE =
            "INSERT INTO EO_OUTBOX_LEASE (DESTINATION, HOLDER, HELD_UNTIL) VALUES (?, ?, ?)";
    private static final String RELEASE =
            "UPDATE EO_OUTBOX_LEASE SET HELD_UNTIL = ? WHERE DESTINATION = ? AND HOLDER = ?";

    /** A released lease's end: long past, so that any relay may take it at once. */
    private static final Timestamp RELEASED = Timestamp.valueOf(LocalDateTime.of(1970, 1, 2, 0, 0));

    @Resource(lookup = "java:comp/DefaultDataSource")
    private DataSource database;

    /** Writes a message in the caller's transaction. */
    public void write(String messageId, Target target, Copy copy, Instant writtenAt) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, messageId);
            insert.setString(2, target.kind().name());
            insert.setString(3, target.name());
            insert.setString(4, copy.bodyType().name());
            insert.setBytes(5, copy.body());
            insert.setString(6, copy.preview());
            insert.setBytes(7, copy.headers().getBytes(StandardCharsets.UTF_8));
            insert.setBytes(8, copy.properties().getBytes(StandardCharsets.UTF_8));
            insert.setTimestamp(9, StoredTimes.utc(writtenAt));
            insert.executeUpdate();
        }
    }

    /** The destinations with messages waiting. */
    public List<Target> destinations() throws SQLException {
        List<Target> targets = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement(DESTINATIONS);
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                targets.add(targetAt(rows, 1));
            }
        }
        return targets;
    }

    /** The first messages waiting for a destination, oldest first. */
    public List<OutboxRow> next(Target target, int max) throws SQLException {
        List<OutboxRow> next = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement(NEXT)) {
            select.setString(1, target.kind().name());
            select.setString(2, target.name());
            select.setMaxRows(max);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    next.add(new OutboxRow(
                            rows.getLong(1),
                            rows.getString(2),
                            BodyType.valueOf(rows.getString(3)),
                            rows.getBytes(4),
                            new String(rows.getBytes(5), StandardCharsets.UTF_8),
                            new String(rows.getBytes(6), StandardCharsets.UTF_8)));
                }
            }
        }
        return next;
    }

    /** Deletes messages the broker has taken. */
    public void sent(List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (Connection connection = database.getConnection();
                PreparedStatement delete = connection.prepareStatement(DELETE)) {
            for (long id : ids) {
                delete.setLong(1, id);
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    /** Keeps why a message could not be sent; it stays, to be sent again. */
    public void failed(long id, String reason, Instant at) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement update = connection.prepareStatement(FAILED)) {
            update.setString(
                    1, reason.length() > MAX_FAILURE_LENGTH ? reason.substring(0, MAX_FAILURE_LENGTH) : reason);
            update.setTimestamp(2, StoredTimes.utc(at));
            update.setLong(3, id);
            update.executeUpdate();
        }
    }

    /**
     * Takes or renews the lease on a destination until {@code until}: held by this holder already, or
     * expired, or never taken.
     *
     * @return false when another relay holds it
     */
    public boolean lease(Target target, String holder, Instant now, Instant until) throws SQLException {
        try (Connection connection = database.getConnection()) {
            try (PreparedStatement renew = connection.prepareStatement(RENEW)) {
                renew.setString(1, holder);
                renew.setTimestamp(2, StoredTimes.utc(until));
                renew.setString(3, target.key());
                renew.setString(4, holder);
                renew.setTimestamp(5, StoredTimes.utc(now));
                if (renew.executeUpdate() == 1) {
                    return true;
                }
            }
            try (PreparedStatement lease = connection.prepareStatement(LEASE)) {
                lease.setString(1, target.key());
                lease.setString(2, holder);
                lease.setTimestamp(3, StoredTimes.utc(until));
                lease.executeUpdate();
                return true;
            } catch (SQLException e) {
                if (SqlStates.isUniqueViolation(e)) {
                    return false; // another relay holds it, or took it between the two statements
                }
                throw e;
            }
        }
    }

    /** Gives up a lease, so that another relay can take the destination without waiting for it to end. */
    public void release(Target target, String holder) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement release = connection.prepareStatement(RELEASE)) {
            release.setTimestamp(1, RELEASED);
            release.setString(2, target.key());
            release.setString(3, holder);
            release.executeUpdate();
        }
    }

    /** What waits in the outbox now, in one look; the counters since start are the relay's to add. */
    public OutboxFigures figures() throws SQLException {
        Map<String, Long> backlog = new TreeMap<>();
        Instant oldest = null;
        long failing = 0;
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement(FIGURES);
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) { // one row per destination: the totals add up from them
                backlog.put(targetAt(rows, 1).toString(), rows.getLong(3));
                Instant written = StoredTimes.instant(rows.getTimestamp(4));
                oldest = oldest == null || written.isBefore(oldest) ? written : oldest;
                failing += rows.getLong(5);
            }
        }
        long waiting = backlog.values().stream().mapToLong(Long::longValue).sum();
        return new OutboxFigures(waiting, backlog, Optional.ofNullable(oldest), failing, 0, 0);
    }

    /** The first messages whose last send failed, oldest first. */
    public List<UnsentMessage> failing(int max) throws SQLException {
        List<UnsentMessage> failing = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement(FAILING)) {
            select.setMaxRows(max);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    failing.add(new UnsentMessage(
                            rows.getString(1),
                            targetAt(rows, 2).toString(),
                            rows.getString(4),
                            StoredTimes.instant(rows.getTimestamp(5)),
                            rows.getInt(6),
                            rows.getString(7),
                            StoredTimes.instant(rows.getTimestamp(8))));
                }
            }
        }
        return failing;
    }

    /** Deletes a waiting message unsent; false when none has that ID (sent meanwhile, or never written). */
    public boolean discard(String messageId) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement delete = connection.prepareStatement(DISCARD)) {
            delete.setString(1, messageId);
            return delete.executeUpdate() == 1;
        }
    }

    /** The destination in the row's columns {@code first} (its kind) and {@code first + 1} (its name). */
    private static Target targetAt(ResultSet rows, int first) throws SQLException {
        return new Target(Target.Kind.valueOf(rows.getString(first)), rows.getString(first + 1));
    }
}
