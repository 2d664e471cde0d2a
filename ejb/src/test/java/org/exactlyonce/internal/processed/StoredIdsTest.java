package org.exactlyonce.internal.processed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoredIdsTest {

    private static final List<String> IDS =
            List.of("x", "x ", "x  ", "x~", "x~~", "x ~", "x~ ", "~", "~~", " ~", "order-1", "Order-1", "é", "e\u0301");

    @Test
    void anIdWithoutATrailingBlankOrEscapeIsStoredAsItIs() {
        assertEquals("order-1", StoredIds.stored("order-1"));
        assertEquals("a b", StoredIds.stored("a b"));
    }

    @Test
    void noStoredIdEndsInABlankThatPadSpaceComparisonWouldIgnore() {
        IDS.forEach(id -> assertFalse(StoredIds.stored(id).endsWith(" "), id));
    }

    @Test
    void distinctIdsHaveDistinctStoredForms() {
        Set<String> stored = new HashSet<>();
        IDS.forEach(id -> stored.add(StoredIds.stored(id)));

        assertEquals(IDS.size(), stored.size());
    }

    @Test
    void distinctIdsStayDistinctWhenTrailingBlanksAreIgnored() {
        Set<String> padded = new HashSet<>();
        IDS.forEach(id -> padded.add(StoredIds.stored(id).stripTrailing()));

        assertEquals(IDS.size(), padded.size());
    }

    @Test
    void theStoredFormGivesBackTheId() {
        IDS.forEach(id -> assertEquals(id, StoredIds.messageId(StoredIds.stored(id))));
    }

    @Test
    void theLongestIdsFitTheColumn() {
        int most = ProcessedMessage.MAX_MESSAGE_ID_LENGTH;
        for (String longest :
                List.of("\uD83D\uDE00".repeat(most), "\uD83D\uDE00".repeat(most - 1) + "~", "~".repeat(most))) {
            assertTrue(StoredIds.stored(longest).length() <= StoredIds.MAX_STORED_LENGTH, longest);
        }
    }
}
