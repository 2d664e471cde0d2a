package org.exactlyonce.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void aMetricHasItsHelpAndTypeThenItsSamples() {
        String text = new PrometheusText()
                .metric("exactlyonce_ids", "gauge", "Processed IDs.")
                .sample("exactlyonce_ids", 3, "consumer", "app/module/Bean", "state", "unconfirmed")
                .sample("exactlyonce_ids", 0)
                .toString();

        assertEquals("""
                # HELP exactlyonce_ids Processed IDs.
                # TYPE exactlyonce_ids gauge
                exactlyonce_ids{consumer="app/module/Bean",state="unconfirmed"} 3
                exactlyonce_ids 0
                """, text);
    }

    @Test
    void aLabelValueCannotBreakItsLine() {
        String text =
                new PrometheusText().sample("m", 1, "consumer", "a\"b\\c\nd").toString();

        assertEquals("m{consumer=\"a\\\"b\\\\c\\nd\"} 1\n", text);
    }
}
