package org.exactlyonce.internal.broker.liberty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.exactlyonce.internal.broker.BrokerView.Candidate;
import org.exactlyonce.internal.broker.liberty.QueueLook.Browsed;
import org.exactlyonce.internal.broker.liberty.QueueLook.Listed;
import org.junit.jupiter.api.Test;

/** A fake messaging engine: what it lists, what the browse sees a moment later, what it describes. */
class QueueLookTest {

    private static final Candidate PROCESSED = new Candidate("order-1", "ID:m1");
    private static final Listed AVAILABLE_AT_THE_LISTING = new Listed("e1", true, "S1");

    private final Map<String, String> engine = Map.of("e1", "ID:m1");
    private final Set<String> described = new HashSet<>();

    @Test
    void aMessageAvailableAtTheListingAndDeliveredBeforeTheBrowseIsStillPending() throws Exception {
        Browsed sawNothing = new Browsed(Set.of(), Set.of()); // locked by a consumer when the browse passed

        assertEquals(
                Set.of("order-1"),
                QueueLook.pending(List.of(AVAILABLE_AT_THE_LISTING), sawNothing, List.of(PROCESSED), this::describe));
    }

    @Test
    void aMessageLockedAtTheListingIsPending() throws Exception {
        Listed locked = new Listed("e1", false, "S1");

        assertEquals(
                Set.of("order-1"),
                QueueLook.pending(
                        List.of(locked), new Browsed(Set.of(), Set.of()), List.of(PROCESSED), this::describe));
    }

    @Test
    void aMessageTheBrowseSawIsMatchedByItsApplicationIdWithoutAskingTheEngine() throws Exception {
        Browsed saw = new Browsed(Set.of("order-1"), Set.of("S1"));

        assertEquals(
                Set.of("order-1"),
                QueueLook.pending(List.of(AVAILABLE_AT_THE_LISTING), saw, List.of(PROCESSED), this::describe));
        assertEquals(Set.of(), described, "one engine call per message the browse did not see, none here");
    }

    @Test
    void aMessageAcknowledgedDuringTheLookIsGone() throws Exception {
        Listed locked = new Listed("e1", false, "S1");

        assertEquals(
                Set.of(),
                QueueLook.pending(
                        List.of(locked), new Browsed(Set.of(), Set.of()), List.of(PROCESSED), engineIds -> Map.of()));
    }

    @Test
    void aProducersResendWaitingOnTheQueueKeepsTheId() throws Exception {
        Listed resend = new Listed("e2", true, "S2");
        Browsed saw = new Browsed(Set.of("order-1"), Set.of("S2"));

        assertEquals(Set.of("order-1"), QueueLook.pending(List.of(resend), saw, List.of(PROCESSED), this::describe));
    }

    @Test
    void aMessageNoLongerListedIsGone() throws Exception {
        assertEquals(
                Set.of(),
                QueueLook.pending(List.of(), new Browsed(Set.of(), Set.of()), List.of(PROCESSED), this::describe));
    }

    @Test
    void anIdProcessedWithoutAJmsMessageIdIsGoneWhenTheBrowseSawEveryMessage() throws Exception {
        Candidate withoutJmsId = new Candidate("order-2", null); // a producer that disabled message IDs

        assertEquals(
                Set.of(),
                QueueLook.pending(
                        List.of(), new Browsed(Set.of(), Set.of()), List.of(withoutJmsId, PROCESSED), this::describe));
    }

    @Test
    void anIdProcessedWithoutAJmsMessageIdIsPendingWhileAnyMessageIsUnseen() throws Exception {
        Candidate withoutJmsId = new Candidate("order-2", null);
        Browsed sawNothing = new Browsed(Set.of(), Set.of());

        assertEquals(
                Set.of("order-1", "order-2"),
                QueueLook.pending(
                        List.of(AVAILABLE_AT_THE_LISTING),
                        sawNothing,
                        List.of(withoutJmsId, PROCESSED),
                        this::describe));
    }

    private Map<String, String> describe(Set<String> engineIds) {
        described.addAll(engineIds);
        Map<String, String> found = new java.util.HashMap<>(engine);
        found.keySet().retainAll(engineIds);
        return found;
    }
}
