package org.exactlyonce.sample.ledger;

import jakarta.json.JsonObject;
import jakarta.ws.rs.BadRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Many credits of one amount to one account, sent as a producer that retries would: every one {@code
 * copies} times in a row (concurrent deliveries of one ID), and the first {@code duplicateShare} of them
 * again with the same IDs, each a few messages after its first copy, as after a timeout. The balance
 * must end at {@code count × amount}. The IDs are {@code idPrefix + index}: a producer that could not
 * tell whether its order went out sends it again with the same {@code idPrefix}; without one, the order
 * gets a new prefix. {@code copies} defaults to 1, {@code duplicateShare} to 0.
 */
public record BulkOrder(String idPrefix, String account, int count, long amount, int copies, double duplicateShare) {

    /** How many messages later a re-send follows its first copy. */
    private static final int RETRY_LAG = 5;

    /** Room for the index after a producer's own prefix, within the engine's 200 characters of an ID. */
    private static final int MAX_ID_PREFIX_LENGTH = 100;

    private static final int MAX_COUNT = 100_000;

    private static final int MAX_COPIES = 100;

    /** The order a client posts, its numbers read exactly. */
    static BulkOrder of(JsonObject asked) {
        return new BulkOrder(
                Requests.text(asked, "idPrefix"),
                Requests.text(asked, "account"),
                asInt(Requests.wholeNumber(asked, "count", 0)),
                Requests.wholeNumber(asked, "amount", 0),
                asInt(Requests.wholeNumber(asked, "copies", 1)),
                Requests.number(asked, "duplicateShare", 0));
    }

    /** A count as an int, one out of range as 0 or the largest int: {@link #plan} refuses both. */
    private static int asInt(long count) {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, count));
    }

    /**
     * The message IDs to send, in order, and what they must add up to.
     *
     * @throws BadRequestException when the order names no account, asks for no credits or too many, or
     *     has a prefix that would leave its IDs too long
     */
    public Plan plan() {
        if (account == null || count < 1 || count > MAX_COUNT) {
            throw Requests.refused("a bulk order needs an account and a count from 1 to " + MAX_COUNT);
        }
        if (copies > MAX_COPIES) {
            throw Requests.refused("a bulk order sends each credit at most " + MAX_COPIES + " times");
        }
        Requests.checked("account", account, CreditsResource.MAX_ACCOUNT_LENGTH);
        if (idPrefix != null) {
            Requests.checked("idPrefix", idPrefix, MAX_ID_PREFIX_LENGTH);
        }
        String prefix = idPrefix == null ? UUID.randomUUID() + "-" : idPrefix;
        int resent = (int) Math.round(count * Math.max(0, Math.min(1, duplicateShare)));
        List<String> sends = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            for (int copy = 0; copy < Math.max(1, copies); copy++) {
                sends.add(prefix + i);
            }
            int retried = i - RETRY_LAG;
            if (retried >= 0 && retried < resent) {
                sends.add(prefix + retried);
            }
        }
        for (int retried = Math.max(0, count - RETRY_LAG); retried < resent; retried++) {
            sends.add(prefix + retried);
        }
        return new Plan(sends, new Result(prefix, sends.size(), count, (long) count * amount));
    }

    /** The IDs to send, in order, and the answer to give. */
    public record Plan(List<String> messageIds, Result result) {}

    /** What a bulk order sent (IDs {@code idPrefix + 0 … idPrefix + (distinctIds - 1)}) and the balance it must produce. */
    public record Result(String idPrefix, int messagesSent, int distinctIds, long expectedBalance) {}
}
