package org.exactlyonce.internal.processed;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** Times as the engine's tables store them: in UTC, whatever the zone of the server or the database. */
public final class StoredTimes {

    private StoredTimes() {}

    public static Timestamp utc(Instant instant) {
        return Timestamp.valueOf(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    /** The instant a stored time stands for; {@code null} for none. */
    public static Instant instant(Timestamp utc) {
        return utc == null ? null : utc.toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
}
