package org.exactlyonce.internal.message;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.Base64;

/**
 * JSON for the values of JMS properties and of map and stream bodies, with their Java type, so that a
 * replay sets an {@code int} as an {@code int}: {@code {"type": "Integer", "value": "42"}}. Numbers are
 * kept as their exact decimal strings, bytes in Base64.
 */
final class TypedValues {

    private TypedValues() {}

    static JsonObject typed(Object value) {
        var typed = Json.createObjectBuilder();
        if (value == null) {
            return typed.add("type", "Null").build();
        }
        if (value instanceof byte[] bytes) {
            return typed.add("type", "Bytes")
                    .add("value", Base64.getEncoder().encodeToString(bytes))
                    .build();
        }
        return typed.add("type", value.getClass().getSimpleName())
                .add("value", value.toString())
                .build();
    }

    static Object value(JsonObject typed) {
        String value = typed.getString("value", null);
        return switch (typed.getString("type")) {
            case "Null" -> null;
            case "Bytes" -> Base64.getDecoder().decode(value);
            case "Boolean" -> Boolean.valueOf(value);
            case "Byte" -> Byte.valueOf(value);
            case "Short" -> Short.valueOf(value);
            case "Character" -> value.charAt(0);
            case "Integer" -> Integer.valueOf(value);
            case "Long" -> Long.valueOf(value);
            case "Float" -> Float.valueOf(value);
            case "Double" -> Double.valueOf(value);
            default -> value;
        };
    }
}
