package org.exactlyonce.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Metrics in the Prometheus text exposition format (version 0.0.4): one {@code # HELP} and
 * {@code # TYPE} line per metric, then its samples. Label values are escaped as the format requires, so
 * a consumer's name cannot break a line.
 */
final class PrometheusText {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder text = new StringBuilder();

    /** Starts a metric; its samples follow. */
    PrometheusText metric(String name, String type, String help) {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n');
        text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** One sample of the metric last started, labelled by name and value pairs. */
    PrometheusText sample(String name, long value, String... labels) {
        text.append(name);
        if (labels.length > 0) {
            Map<String, String> pairs = new LinkedHashMap<>();
            for (int i = 0; i < labels.length; i += 2) {
                pairs.put(labels[i], labels[i + 1]);
            }
            text.append('{');
            pairs.forEach((label, labelValue) ->
                    text.append(label).append("=\"").append(escaped(labelValue)).append("\","));
            text.setCharAt(text.length() - 1, '}');
        }
        text.append(' ').append(value).append('\n');
        return this;
    }

    static String escaped(String labelValue) {
        return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
