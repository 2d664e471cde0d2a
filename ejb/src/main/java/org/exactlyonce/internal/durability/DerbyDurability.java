package org.exactlyonce.internal.durability;

import java.sql.Connection;
import java.util.List;

/**
 * Embedded Derby, in this JVM: {@code derby.system.durability=test} skips every sync to disk, so a crash
 * of the server loses commits or the whole database.
 */
final class DerbyDurability implements CommitDurability {

    static final String DURABILITY = "derby.system.durability";

    @Override
    public List<String> names() {
        return List.of(DURABILITY);
    }

    @Override
    public List<DurabilitySetting> read(Connection connection) {
        return List.of(judge(System.getProperty(DURABILITY, "")));
    }

    static DurabilitySetting judge(String durability) {
        return durability.equalsIgnoreCase("test")
                ? DurabilitySetting.notDurable(
                        DURABILITY,
                        durability,
                        "Derby never syncs to disk: a crash loses commits or the database. Remove the"
                                + " system property")
                : DurabilitySetting.durable(DURABILITY, durability, "Derby syncs its log at every commit");
    }
}
