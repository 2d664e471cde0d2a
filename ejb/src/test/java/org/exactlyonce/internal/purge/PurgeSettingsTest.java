package org.exactlyonce.internal.purge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PurgeSettingsTest {

    @Test
    void theDefaultsAreUsable() {
        assertEquals(List.of(), settings("PT1M", "PT1H", "PT30S", 200).problems());
    }

    @Test
    void aZeroWindowIsUsable() {
        assertEquals(List.of(), settings("PT1M", "PT0S", "PT0S", 200).problems());
    }

    @Test
    void aNegativeWindowIsRefused() {
        List<String> problems = settings("PT1M", "-PT1S", "PT30S", 200).problems();

        assertTrue(problems.get(0).contains("dedup-window must not be negative"), problems.toString());
    }

    @Test
    void aZeroBatchSizeIsRefused() {
        List<String> problems = settings("PT1M", "PT1H", "PT30S", 0).problems();

        assertTrue(problems.get(0).contains("batch-size must be at least 1"), problems.toString());
    }

    @Test
    void aZeroIntervalIsRefused() {
        List<String> problems = settings("PT0S", "PT1H", "PT30S", 200).problems();

        assertTrue(problems.get(0).contains("interval must be at least 1 ms"), problems.toString());
    }

    /** A timer counts whole milliseconds: half of one would run the purge back to back. */
    @Test
    void anIntervalUnderAMillisecondIsRefused() {
        List<String> problems = settings("PT0.0005S", "PT1H", "PT30S", 200).problems();

        assertTrue(problems.get(0).contains("interval must be at least 1 ms, is PT0.0005S"), problems.toString());
    }

    @Test
    void confirmationByAgeIsOffUnlessConfigured() {
        assertEquals(Optional.empty(), settings("PT1M", "PT1H", "PT30S", 200).confirmByAge());
    }

    @Test
    void confirmationByAgeBelowADayIsRefused() {
        PurgeSettings settings = settings("PT1M", "PT1H", "PT30S", 200);
        settings.confirmByAge = Optional.of(Duration.ofHours(23));

        List<String> problems = settings.problems();

        assertTrue(problems.get(0).contains("confirm-by-age must be at least PT24H"), problems.toString());
    }

    @Test
    void confirmationByAgeOfADayIsUsable() {
        PurgeSettings settings = settings("PT1M", "PT1H", "PT30S", 200);
        settings.confirmByAge = Optional.of(Duration.ofDays(1));

        assertEquals(List.of(), settings.problems());
    }

    private static PurgeSettings settings(String interval, String window, String grace, int batchSize) {
        PurgeSettings settings = new PurgeSettings();
        settings.interval = Duration.parse(interval);
        settings.dedupWindow = Duration.parse(window);
        settings.gracePeriod = Duration.parse(grace);
        settings.batchSize = batchSize;
        settings.confirmByAge = Optional.empty();
        return settings;
    }
}
