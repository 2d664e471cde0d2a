package org.exactlyonce.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Malformed input at every HTTP endpoint of the console and the sample answers a 4xx that says what is
 * wrong: never a 5xx, and never an internal message (a driver's, a persistence provider's, a stack
 * trace). The endpoints are those of the server's OpenAPI document, so one added without cases here
 * fails the test.
 */
class BadInputIT {

    private static final String CONSOLE = "/exactly-once/api";
    private static final String LEDGER = "/ledger/api";

    /** Texts no name can hold, nor any ID look-up find: percent-encoded as a URL carries them. */
    private static final List<String> BAD_TEXTS = List.of("%00", "a%00b", "%01", "%1B%5B31m", "x".repeat(5_000));

    /** What is no number in range, as a path segment (an empty one would name another resource). */
    private static final List<String> BAD_IDS = List.of("abc", "-1", "1.5", "NaN", "99999999999999999999", "%00");

    private static final List<String> NOT_JSON_OBJECTS = List.of("{", "[]", "\"x\"", "null", "<order/>");

    private static final List<String> BAD_CREDITS = List.of(
            "{}",
            "{\"messageId\":\"m\",\"account\":\"a\",\"amount\":\"NaN\"}",
            "{\"messageId\":\"m\",\"account\":\"a\",\"amount\":1e400}",
            "{\"messageId\":\"m\\u0000\",\"account\":\"a\",\"amount\":1}",
            "{\"messageId\":\"m\",\"account\":\"a\\u0000\",\"amount\":1}",
            "{\"messageId\":\"m\",\"account\":\"" + "a".repeat(101) + "\",\"amount\":1}");

    private static final List<String> BAD_BULKS = List.of(
            "{\"account\":\"a\",\"count\":\"many\"}",
            "{\"account\":\"a\",\"count\":0}",
            "{\"account\":\"a\\u0001\",\"count\":1}",
            "{\"account\":\"a\",\"count\":1,\"amount\":\"NaN\"}",
            "{\"account\":\"a\",\"count\":1,\"idPrefix\":\"p\\u0000\"}");

    /** What an answer must never show: the insides of the server. */
    private static final Pattern INTERNAL = Pattern.compile(
            "Exception|PSQL|SQL ?State|ERROR:|EclipseLink|Hibernate|RESTEASY|Yasson|Internal error|\\tat [a-z]");

    /** The test harness's endpoints, deployed with the sample here and not shipped: not the product's edges. */
    private static final Pattern HARNESS = Pattern.compile(LEDGER + "/(dead-letters|faults|test-).*");

    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    private final LedgerClient server = new LedgerClient();
    private final List<String> wrong = new ArrayList<>();
    private final Set<String> covered = new TreeSet<>();

    @Test
    void malformedInputAtEveryEndpointGetsAClearClientError() {
        for (String text : BAD_TEXTS) {
            expectRefused("GET", CONSOLE + "/processed", "?consumer=" + text + "&messageId=m");
            expectRefused("GET", CONSOLE + "/processed", "?consumer=c&messageId=" + text);
            expectRefused("GET", CONSOLE + "/parked", "?consumer=" + text);
            expectRefused("GET", CONSOLE + "/parked", "?reason=" + text);
            expectRefused("DELETE", CONSOLE + "/outbox/{messageId}", text);
            expectRefused("GET", LEDGER + "/accounts/{account}", text);
            expectRefused("GET", LEDGER + "/accounts/{account}/effects", text);
        }
        for (String number : BAD_IDS) {
            expectRefused("GET", CONSOLE + "/parked", "?page=" + number);
            expectRefused("GET", CONSOLE + "/parked", "?size=" + number);
            expectRefused("GET", CONSOLE + "/parked/{id}", number);
            expectRefused("POST", CONSOLE + "/parked/{id}/replay", number);
            expectRefused("DELETE", CONSOLE + "/parked/{id}", number);
        }
        expectRefused("GET", CONSOLE + "/parked", "?size=");
        for (String body : NOT_JSON_OBJECTS) {
            expectRefusedBody(LEDGER + "/credits", body);
            expectRefusedBody(LEDGER + "/credits/bulk", body);
        }
        BAD_CREDITS.forEach(body -> expectRefusedBody(LEDGER + "/credits", body));
        BAD_BULKS.forEach(body -> expectRefusedBody(LEDGER + "/credits/bulk", body));
        // endpoints that read no input: their answer to any query is their answer
        for (String path : List.of(
                "/consumers",
                "/me",
                "/metrics",
                "/outbox",
                "/database/durability",
                "/health",
                "/health/ready",
                "/health/live")) {
            expectNoServerError("GET", CONSOLE + path, "?x=%00");
        }
        expectNoServerError("POST", CONSOLE + "/purge", "?x=%00");

        assertEquals(List.of(), wrong, "answers that are not a clear client error");
        assertEquals(Set.of(), undocumentedOrUncovered(), "endpoints of the OpenAPI document without cases here");
    }

    /** The path template with the value in its parameter, or the query appended. */
    private void expectRefused(String method, String template, String value) {
        HttpResponse<String> answer = server.call(method, filled(template, value), userOf(template), true);
        judge(method, template, value, answer, true);
    }

    private void expectNoServerError(String method, String template, String query) {
        HttpResponse<String> answer = server.call(method, template + query, userOf(template), true);
        judge(method, template, query, answer, false);
    }

    private void expectRefusedBody(String path, String body) {
        HttpResponse<String> answer = server.postText(path, body);
        judge("POST", path, body, answer, true);
    }

    private void judge(String method, String template, String input, HttpResponse<String> answer, boolean mustRefuse) {
        covered.add(method + " " + template);
        int status = answer.statusCode();
        String shown = method + " " + template + " with " + abbreviated(input) + " answered " + status + ": "
                + abbreviated(answer.body());
        if (status >= 500 || mustRefuse && status < 400) {
            wrong.add(shown);
        } else if (INTERNAL.matcher(answer.body()).find()) {
            wrong.add(shown + " (an internal message)");
        }
    }

    /** The console's administrator, or the sample's clerk: each may call every endpoint of its own. */
    private static String userOf(String template) {
        return template.startsWith(LEDGER) ? "clerk" : "admin";
    }

    private static String filled(String template, String value) {
        return value.startsWith("?") ? template + value : template.replaceFirst("\\{[^}]+}", value);
    }

    private static String abbreviated(String text) {
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }

    /** Each method and path of the OpenAPI document, the harness's aside, that no case here reached. */
    private Set<String> undocumentedOrUncovered() {
        JsonObject paths = LedgerClient.json(server.call("GET", "/openapi?format=JSON", null, false))
                .asJsonObject()
                .getJsonObject("paths");
        Set<String> missing = new TreeSet<>();
        paths.forEach((path, operations) -> {
            if (HARNESS.matcher(path).matches()) {
                return;
            }
            for (String method : operations.asJsonObject().keySet()) {
                if (!HTTP_METHODS.contains(method)) {
                    continue; // the path's own parameters, summary
                }
                String operation = method.toUpperCase(java.util.Locale.ROOT) + " " + path;
                if (!covered.contains(operation)) {
                    missing.add(operation);
                }
            }
        });
        assertTrue(!paths.isEmpty(), "the OpenAPI document lists the endpoints");
        return missing;
    }
}
