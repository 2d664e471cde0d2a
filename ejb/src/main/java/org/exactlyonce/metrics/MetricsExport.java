package org.exactlyonce.metrics;

/**
 * Where {@link ConsumerMetrics} publishes its figures for a metrics scraper. The figures themselves
 * live in {@link ConsumerMetrics}, so the console has them on every server; a server without a metrics
 * API (WildFly has no MicroProfile Metrics) simply has no export.
 */
interface MetricsExport {

    /** Publishes a consumer's figures the first time it is delivered a message. */
    void consumerSeen(String consumer, ConsumerMetrics figures);

    /** Counts one delivery's outcome. */
    void counted(String consumer, Outcome outcome);

    /** Publishes a consumer's processed-ID table counts the first time a purge counted them. */
    void idTableSeen(String consumer, ConsumerMetrics figures);
}
