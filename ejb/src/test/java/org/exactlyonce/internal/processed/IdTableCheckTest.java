package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.Test;

/** The start's look at the ID table's indexes, on tables as src/ddl creates them and as an older version did. */
class IdTableCheckTest {

    @Test
    void tablesFromTheDdlHaveThePurgeIndex() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("purge-index").getConnection()) {
            Map<String, List<String>> indexes = IdTableCheck.indexes(connection.getMetaData());

            assertTrue(IdTableCheck.hasPurgeIndex(indexes));
            assertEquals(List.of(), IdTableCheck.indexesOnTheTimeAlone(indexes));
        }
    }

    @Test
    void aTableWithTheEarlierIndexOnItsTimeAloneIsToldToCreateIt() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("earlier-index").getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("DROP INDEX EO_PROCESSED_MESSAGE_PURGE");
            ddl.execute("CREATE INDEX EO_PROCESSED_MESSAGE_ACK ON EO_PROCESSED_MESSAGE (ACKNOWLEDGED_AT)");

            assertFalse(IdTableCheck.hasPurgeIndex(IdTableCheck.indexes(connection.getMetaData())));
        }
    }

    @Test
    void aTableThatKeepsTheEarlierIndexBesideThePurgesIsToldToDropIt() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("both-indexes").getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("CREATE INDEX EO_PROCESSED_MESSAGE_ACK ON EO_PROCESSED_MESSAGE (ACKNOWLEDGED_AT)");
            Map<String, List<String>> indexes = IdTableCheck.indexes(connection.getMetaData());

            assertTrue(IdTableCheck.hasPurgeIndex(indexes));
            assertEquals(List.of("EO_PROCESSED_MESSAGE_ACK"), IdTableCheck.indexesOnTheTimeAlone(indexes));
        }
    }
}
