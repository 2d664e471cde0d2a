package org.exactlyonce.internal.durability;

import java.util.List;
import java.util.Set;

/**
 * The database's durability settings as they were read, and which of those that lose commits an
 * operator has accepted ({@code exactlyonce.database.accepted-durability-risks}).
 *
 * @param database the database's product name
 * @param settings every setting read, judged; empty for a database this engine does not know
 * @param accepted the names of settings whose risk is accepted
 */
public record DurabilityReport(String database, List<DurabilitySetting> settings, Set<String> accepted) {

    /** Whether this engine knows how the database makes a commit durable. */
    public boolean known() {
        return !settings.isEmpty();
    }

    public boolean isAccepted(DurabilitySetting setting) {
        return !setting.durable() && accepted.contains(setting.name());
    }

    /** The settings that lose commits and that nobody accepted. */
    public List<DurabilitySetting> refused() {
        return settings.stream()
                .filter(setting -> !setting.durable() && !isAccepted(setting))
                .toList();
    }

    /** The settings that lose commits, accepted. */
    public List<DurabilitySetting> acceptedRisks() {
        return settings.stream().filter(this::isAccepted).toList();
    }
}
