package org.exactlyonce.admin.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcessedIdTableReadinessTest {

    @Test
    void theRightPrimaryKeyIsReady() {
        assertEquals(Optional.empty(), ProcessedIdTableReadiness.problemWith(Set.of("CONSUMER", "MESSAGE_ID")));
    }

    @Test
    void aMissingPrimaryKeyIsNotReady() {
        String problem = ProcessedIdTableReadiness.problemWith(Set.of()).orElseThrow();

        assertTrue(problem.contains("missing or has no primary key"), problem);
    }

    @Test
    void aPrimaryKeyOnTheMessageIdAloneIsNotReady() {
        String problem =
                ProcessedIdTableReadiness.problemWith(Set.of("MESSAGE_ID")).orElseThrow();

        assertTrue(problem.contains("duplicates would not be detected"), problem);
    }
}
