package org.exactlyonce.it;

import java.io.IOException;
import java.time.Duration;

/** The ways a test can take a local database away under load, each as {@link OutageIT} runs it. */
interface DatabaseOutages {

    /** The database the test server's phase uses: {@code it.outage.database}, PostgreSQL unless set. */
    static DatabaseOutages ofThisPhase() {
        return "mariadb".equals(System.getProperty("it.outage.database")) ? new MariaDb() : new PostgreSql();
    }

    /** Stopped for a while, as a crashed host looks: connections cut, none accepted. */
    CrashSuite.DatabaseOutage stopped();

    /** Restarted as an operator does, the moment the outage begins: sessions told to end, a clean start. */
    CrashSuite.DatabaseOutage restartedFast();

    /** Every session of the test server's database killed, in bursts two seconds apart. */
    default CrashSuite.DatabaseOutage sessionsTerminated(int bursts) {
        return new CrashSuite.DatabaseOutage(
                "terminated-sessions",
                () -> {
                    for (int burst = 0; burst < bursts; burst++) {
                        System.out.println("terminated " + terminateSessions() + " sessions");
                        Await.pause(Duration.ofSeconds(2));
                    }
                },
                () -> {});
    }

    /**
     * Ends every other session on the test server's database, as an operator's or a failover's kill does.
     *
     * @return how many it ended
     */
    int terminateSessions() throws IOException, InterruptedException;

    /**
     * Hung for a while ({@code kill -STOP}), as a partitioned or frozen host looks: connections stay open
     * and new ones are accepted by the kernel, but nothing answers.
     */
    CrashSuite.DatabaseOutage hung();
}
