package org.exactlyonce.internal.durability;

/**
 * One setting that decides whether a committed transaction survives a crash or a failover, as the
 * database reported it.
 *
 * @param name the database's name for it
 * @param value its value, as the database reported it
 * @param durable whether commits survive with this value
 * @param why what the value does to a commit, and, where it is not durable, the value to use
 */
public record DurabilitySetting(String name, String value, boolean durable, String why) {

    static DurabilitySetting durable(String name, String value, String why) {
        return new DurabilitySetting(name, value, true, why);
    }

    static DurabilitySetting notDurable(String name, String value, String why) {
        return new DurabilitySetting(name, value, false, why);
    }
}
