package org.exactlyonce.internal.delivery;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.durability.DurabilityGuard;
import org.exactlyonce.internal.outage.DatabaseOutage;
import org.exactlyonce.internal.platform.BrokerChoice;

/**
 * Checks the consumers' settings when the application starts: unusable values fail the deployment
 * with every reason at once, instead of surfacing at the first failing message. The purge checks its
 * own settings when it is scheduled.
 */
@Singleton
@Startup
public class SettingsCheck {

    @Inject
    DeliverySettings deliveries;

    @Inject
    MessageIds messageIds;

    @Inject
    ServerCrashes crashes;

    @EJB
    DatabaseOutage outage;

    @Inject
    BrokerChoice broker;

    @Inject
    BrokerConnections connections;

    @Inject
    DurabilityGuard durability;

    @PostConstruct
    public void check() {
        List<String> problems = new ArrayList<>(deliveries.problems());
        problems.addAll(messageIds.problems());
        problems.addAll(outage.problems());
        problems.addAll(broker.problems());
        problems.addAll(connections.problems());
        problems.addAll(durability.problems());
        if (problems.isEmpty()) { // opened with settings known to be usable
            problems.addAll(crashes.problems());
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("exactly-once consumers cannot start: " + String.join("; ", problems));
        }
    }
}
