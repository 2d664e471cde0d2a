package org.exactlyonce.internal.park;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.exactlyonce.ParkReason;
import org.junit.jupiter.api.Test;

class ParkedMessageTest {

    @Test
    void aFailureWithoutAMessageIsParkedWithItsReasonAsTheDetail() {
        ParkedMessage parked = new ParkedMessage("c", "id-1", "ID:1", "Q", ParkReason.INVALID_PAYLOAD, null);

        assertTrue(parked.detail().startsWith("INVALID_PAYLOAD"), parked.detail());
    }

    @Test
    void aLongDetailIsCut() {
        ParkedMessage parked = new ParkedMessage("c", "id-1", "ID:1", "Q", ParkReason.KEEPS_FAILING, "x".repeat(5_000));

        assertEquals(ParkedMessage.MAX_DETAIL_LENGTH, parked.detail().length());
    }

    @Test
    void theIdIsKeptInTheFormThatTheProcessedIdTableCompares() {
        ParkedMessage parked = new ParkedMessage("c", "x ", "ID:1", "Q", ParkReason.KEEPS_FAILING, "failed");

        assertEquals("x ", parked.messageId());
    }
}
