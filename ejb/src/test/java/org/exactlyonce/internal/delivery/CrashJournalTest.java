package org.exactlyonce.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The crash journal: what a run leaves in flight, the next run reads; what ended, it does not. */
class CrashJournalTest {

    @TempDir
    Path directory;

    @Test
    void deliveriesLeftInFlightAreReadByTheNextRun() throws Exception {
        Path file = directory.resolve("journal");
        CrashJournal run = CrashJournal.open(file, 4);
        run.begin("ledger", "order-1");
        run.begin("ledger", "ordre-\u00e9");
        run.begin("audit", "order-1");
        run.begin("ledger", "order-2").close();

        CrashJournal next = CrashJournal.open(file, 4);

        assertEquals(
                Map.of("ledger", Set.of("order-1", "ordre-\u00e9"), "audit", Set.of("order-1")), next.interrupted());
        assertEquals(Map.of(), CrashJournal.open(file, 4).interrupted(), "each run reads its predecessor's only");
    }

    @Test
    void aRunThatEndedEveryDeliveryLeavesNothing() throws Exception {
        Path file = directory.resolve("journal");
        CrashJournal run = CrashJournal.open(file, 2);
        for (int i = 0; i < 10; i++) {
            run.begin("ledger", "order-" + i).close(); // slots are used again
        }

        assertEquals(Map.of(), CrashJournal.open(file, 2).interrupted());
    }

    @Test
    void beyondItsSlotsADeliveryGoesOnUnjournaled() throws Exception {
        Path file = directory.resolve("journal");
        CrashJournal run = CrashJournal.open(file, 1);
        run.begin("ledger", "order-1");

        assertSame(CrashJournal.Entry.NONE, run.begin("ledger", "order-2"));
        assertSame(CrashJournal.Entry.NONE, run.begin("ledger", "x".repeat(3_000)), "longer than a slot");
        assertEquals(
                Map.of("ledger", Set.of("order-1")), CrashJournal.open(file, 1).interrupted());
    }

    @Test
    void aJournalOpenedWithFewerSlotsStillReadsAndEmptiesEveryOne() throws Exception {
        Path file = directory.resolve("journal");
        CrashJournal run = CrashJournal.open(file, 4);
        for (int i = 0; i < 4; i++) {
            run.begin("ledger", "order-" + i);
        }

        assertEquals(4, CrashJournal.open(file, 1).interrupted().get("ledger").size());
        assertEquals(Map.of(), CrashJournal.open(file, 1).interrupted());
    }
}
