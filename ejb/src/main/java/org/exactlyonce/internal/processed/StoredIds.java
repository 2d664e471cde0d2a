package org.exactlyonce.internal.processed;

/**
 * The form in which the engine's tables keep a message ID, so that two distinct IDs never become one
 * key. Derby compares every string type, {@code FOR BIT DATA} included, as if the shorter were padded
 * with blanks ({@code 'x' = 'x '}), and so do MariaDB's PAD SPACE collations: no stored ID may end in
 * a blank. An ID that ends in a blank or in the escape character gets one escape character appended,
 * which keeps the mapping one-to-one; every other ID is stored as it is. Case and accents are the
 * collation's to keep apart (binary collations in {@code src/ddl}, checked by {@link IdTableCheck}).
 */
public final class StoredIds {

    private static final char ESCAPE = '~';

    /** The longest stored form of an ID of {@link ProcessedMessage#MAX_MESSAGE_ID_LENGTH} code points, in UTF-16 units. */
    public static final int MAX_STORED_LENGTH = 2 * ProcessedMessage.MAX_MESSAGE_ID_LENGTH + 1;

    private StoredIds() {}

    /** The ID as the tables keep it. */
    public static String stored(String messageId) {
        return needsEscape(messageId) ? messageId + ESCAPE : messageId;
    }

    /** The ID a stored form was made from. */
    public static String messageId(String stored) {
        if (stored == null || stored.length() < 2 || stored.charAt(stored.length() - 1) != ESCAPE) {
            return stored;
        }
        String unescaped = stored.substring(0, stored.length() - 1);
        return needsEscape(unescaped) ? unescaped : stored;
    }

    /**
     * Whether every character survives the trip to a database column: PostgreSQL stores no NUL, and
     * a lone surrogate becomes '?' in UTF-8, which would make two distinct IDs one.
     */
    public static boolean isStorable(String id) {
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '\0') {
                return false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean needsEscape(String messageId) {
        if (messageId == null || messageId.isEmpty()) {
            return false;
        }
        char last = messageId.charAt(messageId.length() - 1);
        return last == ' ' || last == ESCAPE;
    }
}
