package org.exactlyonce.processed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.Test;

/** The start's look for the purge's index, on tables as src/ddl creates them and as an older version did. */
class IdTableCheckTest {

    @Test
    void tablesFromTheDdlHaveThePurgeIndex() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("purge-index").getConnection()) {
            assertTrue(IdTableCheck.hasPurgeIndex(connection.getMetaData()));
        }
    }

    @Test
    void aTableWithTheEarlierIndexOnItsTimeAloneIsToldToCreateIt() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("earlier-index").getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("DROP INDEX EO_PROCESSED_MESSAGE_PURGE");
            ddl.execute("CREATE INDEX EO_PROCESSED_MESSAGE_ACK ON EO_PROCESSED_MESSAGE (ACKNOWLEDGED_AT)");

            assertFalse(IdTableCheck.hasPurgeIndex(connection.getMetaData()));
        }
    }
}
