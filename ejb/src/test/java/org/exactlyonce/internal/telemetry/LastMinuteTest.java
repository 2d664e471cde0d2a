package org.exactlyonce.internal.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.exactlyonce.internal.telemetry.ConsumerMetrics.LastMinute;
import org.junit.jupiter.api.Test;

class LastMinuteTest {

    @Test
    void countsWhatHappenedInTheLastSixtySeconds() {
        LastMinute window = new LastMinute();
        window.add(1_000);
        window.add(1_500);
        window.add(30_000);

        assertEquals(3, window.total(59_999));
        assertEquals(1, window.total(61_000), "the first second has left the window");
        assertEquals(0, window.total(120_000));
    }

    @Test
    void aSlotIsReusedAMinuteLater() {
        LastMinute window = new LastMinute();
        window.add(5_000);
        window.add(65_000);

        assertEquals(1, window.total(65_000));
    }
}
