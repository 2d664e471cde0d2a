package org.exactlyonce.internal.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommitDurabilityTest {

    @Test
    void postgresqlsDefaultsKeepEveryCommit() {
        List<DurabilitySetting> settings = PostgresqlDurability.judge("on", "on", "on", "", 0);

        assertEquals(List.of(), notDurable(settings));
    }

    @Test
    void postgresqlWithoutFsyncOrFullPagesOrSynchronousCommitLosesCommits() {
        List<DurabilitySetting> settings = PostgresqlDurability.judge("off", "off", "off", "", 0);

        assertEquals(List.of("fsync", "full_page_writes", "synchronous_commit"), notDurable(settings));
        assertTrue(settings.get(2).why().contains("Set synchronous_commit = on"), settings.get(2)::why);
    }

    @Test
    void anAsynchronousStandbyLosesCommitsAtAFailover() {
        List<DurabilitySetting> settings = PostgresqlDurability.judge("on", "on", "on", "", 1);

        assertEquals(List.of("synchronous_standby_names"), notDurable(settings));
    }

    @Test
    void aSynchronousStandbyKeepsThemUnlessCommitsStayLocal() {
        assertEquals(List.of(), notDurable(PostgresqlDurability.judge("on", "on", "on", "ANY 1 (*)", 1)));
        assertEquals(List.of(), notDurable(PostgresqlDurability.judge("on", "on", "remote_write", "ANY 1 (*)", 1)));
        assertEquals(
                List.of("synchronous_commit"),
                notDurable(PostgresqlDurability.judge("on", "on", "local", "ANY 1 (*)", 1)));
    }

    @Test
    void mariaDbsDefaultsKeepEveryCommit() {
        assertEquals(
                List.of(), notDurable(MariadbDurability.judge("1", "OFF", "0", Optional.of("OFF"), Optional.empty())));
    }

    @Test
    void mariaDbFlushingOnceASecondLosesCommits() {
        for (String flush : List.of("0", "2")) {
            assertEquals(
                    List.of("innodb_flush_log_at_trx_commit"),
                    notDurable(MariadbDurability.judge(flush, "OFF", "0", Optional.empty(), Optional.empty())));
        }
    }

    @Test
    void anUnsyncedBinaryLogLosesCommitsOnlyWhenItIsOn() {
        assertEquals(
                List.of("sync_binlog"),
                notDurable(MariadbDurability.judge("1", "ON", "0", Optional.empty(), Optional.empty())));
        assertEquals(
                List.of(), notDurable(MariadbDurability.judge("1", "ON", "1", Optional.empty(), Optional.empty())));
    }

    @Test
    void aGaleraNodeOutsideThePrimaryComponentIsRefused() {
        assertEquals(
                List.of("wsrep_ready"),
                notDurable(MariadbDurability.judge("1", "OFF", "0", Optional.of("ON"), Optional.of("OFF"))));
        assertEquals(
                List.of(), notDurable(MariadbDurability.judge("1", "OFF", "0", Optional.of("ON"), Optional.of("ON"))));
    }

    @Test
    void derbysTestDurabilityLosesCommits() {
        assertFalse(DerbyDurability.judge("test").durable());
        assertTrue(DerbyDurability.judge("").durable());
    }

    @Test
    void anAcceptedRiskIsReportedButNotRefused() {
        DurabilityReport report = new DurabilityReport(
                "PostgreSQL",
                PostgresqlDurability.judge("on", "on", "off", "", 1),
                Set.of("synchronous_standby_names"));

        assertEquals(
                List.of("synchronous_commit"),
                report.refused().stream().map(DurabilitySetting::name).toList());
        assertEquals(
                List.of("synchronous_standby_names"),
                report.acceptedRisks().stream().map(DurabilitySetting::name).toList());
    }

    @Test
    void everyKnownSettingCanBeAccepted() {
        assertTrue(CommitDurability.allNames()
                .containsAll(List.of(
                        "fsync",
                        "full_page_writes",
                        "synchronous_commit",
                        "synchronous_standby_names",
                        "innodb_flush_log_at_trx_commit",
                        "sync_binlog",
                        "wsrep_ready",
                        "derby.system.durability")));
    }

    private static List<String> notDurable(List<DurabilitySetting> settings) {
        return settings.stream()
                .filter(setting -> !setting.durable())
                .map(DurabilitySetting::name)
                .toList();
    }
}
