package org.exactlyonce.internal.broker.artemis;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import org.exactlyonce.internal.broker.BrokerView.Candidate;

/**
 * One look at an ActiveMQ Artemis queue, gathered from the views that each show some of its messages:
 * the delivering ones (in a consumer's {@code onMessage}, or prefetched into its buffer), the scheduled
 * ones (a redelivery delay), and the available ones, which only a browse sees uncapped (a filtered
 * listing scans only the first 200 messages on Artemis 2.44). The views are taken one after the other,
 * delivering and scheduled both before and after the browse, so a message that changes state once
 * during the look is seen by one of them.
 */
final class ArtemisLook {

    private final Set<String> applicationIds = new HashSet<>();
    private final Set<String> jmsMessageIds = new HashSet<>();
    private final BiFunction<Map<String, ?>, String, Optional<String>> applicationIdOf;

    /**
     * @param applicationIdOf reads the application's ID of a listed message, given its fields and its
     *     JMS message ID
     */
    ArtemisLook(BiFunction<Map<String, ?>, String, Optional<String>> applicationIdOf) {
        this.applicationIdOf = applicationIdOf;
    }

    /**
     * Adds the messages of a listing, as Artemis' {@code list…MessagesAsJSON} operations return them:
     * an array of messages, or of consumers each with its messages under {@code elements}.
     */
    void addListing(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            addAll(reader.readArray());
        }
    }

    /** Adds a message a browse saw. */
    void addBrowsed(String applicationId, String jmsMessageId) {
        if (applicationId != null) {
            applicationIds.add(applicationId);
        }
        if (jmsMessageId != null) {
            jmsMessageIds.add(jmsMessageId);
        }
    }

    /** The application IDs of the candidates whose messages were seen in any view. */
    Set<String> pending(Collection<Candidate> candidates) {
        Set<String> pending = new HashSet<>();
        for (Candidate candidate : candidates) {
            if (applicationIds.contains(candidate.messageId()) || jmsMessageIds.contains(candidate.jmsMessageId())) {
                pending.add(candidate.messageId());
            }
        }
        return pending;
    }

    private void addAll(JsonArray listed) {
        for (JsonValue value : listed) {
            if (!(value instanceof JsonObject object)) {
                continue;
            }
            if (object.get("elements") instanceof JsonArray messages) { // a consumer and its deliveries
                addAll(messages);
            } else {
                addMessage(object);
            }
        }
    }

    /** A listed message carries its JMS message ID as {@code userID}, and each property as a field. */
    private void addMessage(JsonObject message) {
        Map<String, String> texts = new HashMap<>();
        message.forEach((name, value) -> {
            if (value instanceof JsonString text) {
                texts.put(name, text.getString());
            }
        });
        String jmsMessageId = texts.get("userID");
        addBrowsed(applicationIdOf.apply(texts, jmsMessageId).orElse(null), jmsMessageId);
    }
}
