package org.exactlyonce.internal.outage;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Asks the database whether it takes writes, with an update of no row of the ID table. A read would be
 * answered by a server that refuses every insert: a standby, a primary demoted by a failover, a Galera
 * node that is not part of the primary component. Its refusals would then count as the message's own
 * failures, and a failover would end in parked messages.
 */
public final class WriteProbe {

    /** No consumer's name begins with a blank, so no row matches, and none is locked. */
    private static final String UPDATE_NO_ROW = "UPDATE EO_PROCESSED_MESSAGE SET ACKNOWLEDGED_AT = NULL"
            + " WHERE CONSUMER = ' exactly-once write probe' AND MESSAGE_ID = ''";

    private WriteProbe() {}

    /** Whether the database behind the data source takes a write now. */
    public static boolean takesWrites(DataSource database) {
        try (Connection connection = database.getConnection();
                Statement update = connection.createStatement()) {
            update.executeUpdate(UPDATE_NO_ROW);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
