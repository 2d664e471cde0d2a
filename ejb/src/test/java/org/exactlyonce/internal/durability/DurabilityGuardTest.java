package org.exactlyonce.internal.durability;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guard on a real embedded Derby, made to skip its syncs as {@code derby.system.durability=test} does. */
class DurabilityGuardTest {

    private final DurabilityGuard guard = new DurabilityGuard();

    @BeforeEach
    void derbyWithoutSyncs() throws Exception {
        guard.database = EngineTables.inNewDerby("durability-guard");
        guard.acceptedRisks = Optional.empty();
        System.setProperty(DerbyDurability.DURABILITY, "test");
    }

    @AfterEach
    void derbyAsUsual() {
        System.clearProperty(DerbyDurability.DURABILITY);
    }

    @Test
    void refusesToStartOnASettingThatLosesCommitsAndNamesTheWayOut() {
        DurabilityGuard.NotDurable refusal = assertThrows(DurabilityGuard.NotDurable.class, guard::requireDurable);

        assertTrue(
                refusal.getMessage().contains("derby.system.durability is 'test'")
                        && refusal.getMessage()
                                .contains("exactlyonce.database.accepted-durability-risks=derby.system.durability"),
                refusal::getMessage);
    }

    @Test
    void startsWhenTheRiskIsAccepted() throws Exception {
        guard.acceptedRisks = Optional.of(List.of(" derby.system.durability "));

        assertDoesNotThrow(guard::requireDurable);
        assertEquals(1, guard.read().acceptedRisks().size());
    }

    @Test
    void startsOnDerbysDefault() {
        System.clearProperty(DerbyDurability.DURABILITY);

        assertDoesNotThrow(guard::requireDurable);
    }

    @Test
    void anAcceptedRiskItDoesNotKnowIsASettingsProblem() {
        guard.acceptedRisks = Optional.of(List.of("synchronous_comit"));

        assertEquals(1, guard.problems().size());
        assertTrue(guard.problems().get(0).contains("'synchronous_comit'"), guard.problems()::toString);
    }
}
