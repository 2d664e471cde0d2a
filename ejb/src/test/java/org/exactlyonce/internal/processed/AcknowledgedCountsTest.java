package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.Statement;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.Test;

/** Whether the consumers' table can keep the acknowledged IDs' count, as src/ddl creates it and as it was. */
class AcknowledgedCountsTest {

    @Test
    void tablesFromTheDdlHaveTheColumn() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("kept-counts").getConnection()) {
            assertTrue(AcknowledgedCounts.haveTheirColumn(connection));
        }
    }

    @Test
    void aTableFromBeforeTheColumnIsToldApart() throws Exception {
        try (Connection connection = EngineTables.inNewDerby("no-kept-counts").getConnection();
                Statement ddl = connection.createStatement()) {
            ddl.execute("ALTER TABLE EO_CONSUMER DROP COLUMN ACKNOWLEDGED_IDS");

            assertFalse(AcknowledgedCounts.haveTheirColumn(connection));
        }
    }
}
