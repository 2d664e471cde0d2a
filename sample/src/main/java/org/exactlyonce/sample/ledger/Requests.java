package org.exactlyonce.sample.ledger;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.StringReader;
import java.util.logging.Logger;

/**
 * What the ledger's endpoints read from a request, checked as the ledger stores it: a refusal answers
 * 400 with the reason as plain text. Numbers are read exactly, as JSON binding does not: it reads
 * {@code 1e400} into a {@code long} as 0.
 */
final class Requests {

    private static final Logger LOG = Logger.getLogger(Requests.class.getName());

    private Requests() {}

    /** A 400 whose body says why. */
    static BadRequestException refused(String reason) {
        LOG.info(() -> "the ledger refused a request: " + reason);
        return new BadRequestException(Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.TEXT_PLAIN_TYPE.withCharset("UTF-8"))
                .entity(reason)
                .build());
    }

    /**
     * A text as the ledger stores it: 1 to {@code max} characters (code points, as the database and
     * the engine count them), none of them a control character.
     */
    static String checked(String name, String text, int max) {
        if (text == null
                || text.isBlank()
                || text.codePointCount(0, text.length()) > max
                || text.chars().anyMatch(Character::isISOControl)) {
            throw refused(name + " must have 1 to " + max + " characters, none of them a control character");
        }
        return text;
    }

    /**
     * The body, which must be a JSON object; read here rather than bound, so that a body that is not
     * JSON is refused with a reason, and the numbers read exactly.
     */
    static JsonObject object(String body, String what) {
        try (JsonReader reader = Json.createReader(new StringReader(body == null ? "" : body))) {
            if (reader.readValue() instanceof JsonObject object) {
                return object;
            }
        } catch (JsonException e) {
            // said below
        }
        throw refused("the body must be a JSON object: " + what);
    }

    /** A string member; {@code null} when absent. */
    static String text(JsonObject body, String name) {
        JsonValue value = body.get(name);
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString text)) {
            throw refused(name + " must be a string");
        }
        return text.getString();
    }

    /** A whole-number member, exactly; {@code absent} when it is not there. */
    static long wholeNumber(JsonObject body, String name, long absent) {
        JsonValue value = body.get(name);
        if (value == null || value == JsonValue.NULL) {
            return absent;
        }
        try {
            return ((JsonNumber) value).bigDecimalValue().longValueExact();
        } catch (ClassCastException | ArithmeticException e) {
            throw refused(name + " must be a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
        }
    }

    /** A number member; {@code absent} when it is not there. */
    static double number(JsonObject body, String name, double absent) {
        JsonValue value = body.get(name);
        if (value == null || value == JsonValue.NULL) {
            return absent;
        }
        if (!(value instanceof JsonNumber number) || !Double.isFinite(number.doubleValue())) {
            throw refused(name + " must be a number");
        }
        return number.doubleValue();
    }
}
