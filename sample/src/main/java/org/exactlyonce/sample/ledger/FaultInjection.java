package org.exactlyonce.sample.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.consume.ProtocolStep;

/**
 * Failures and crashes on demand, to show (and test) that every message still has exactly one effect.
 * Off unless the server sets {@code ledger.fault-injection.enabled=true}: a production server never
 * fails or halts because a message asked it to.
 */
@ApplicationScoped
public class FaultInjection {

    private static final Logger LOG = Logger.getLogger(FaultInjection.class.getName());

    /** Exit status of a halted server, as after {@code kill -9}. */
    private static final int KILLED = 137;

    @Inject
    @ConfigProperty(name = "ledger.fault-injection.enabled", defaultValue = "false")
    boolean enabled;

    /** Where a crash is remembered, so the redelivery after the restart does not crash again. */
    @Inject
    @ConfigProperty(name = "ledger.fault-injection.marker-dir", defaultValue = "fault-injection")
    String markerDir;

    boolean isEnabled() {
        return enabled;
    }

    /** Fails the first deliveries of a message, as many as it asks for. */
    void failDeliveryIfAsked(CreditOrder order, Message message) throws JMSException {
        if (enabled && order.faults() != null) {
            int delivery = message.getIntProperty("JMSXDeliveryCount");
            if (delivery <= order.faults().failDeliveries()) {
                throw new IllegalStateException("fault injection: delivery " + delivery + " of message "
                        + order.messageId() + " fails as asked");
            }
        }
    }

    /**
     * Halts the JVM, as {@code kill -9} would, the first time a message reaches the step it names,
     * after the pause it asks for (during which the delivery is in flight: committed, not acknowledged).
     */
    void crashIfAsked(@Observes ProtocolStep reached) throws Exception {
        if (!enabled) {
            return;
        }
        CreditOrder order = CreditOrders.fromJson(reached.message().getBody(String.class));
        if (order.faults() != null
                && reached.step().name().equals(order.faults().crashAt())
                && firstCrash(reached)) {
            Thread.sleep(order.faults().pauseMillis());
            LOG.severe(() ->
                    "fault injection: halting the server at " + reached.step() + " of message " + reached.messageId());
            Runtime.getRuntime().halt(KILLED);
        }
    }

    private boolean firstCrash(ProtocolStep reached) throws IOException {
        String name = reached.consumer() + "-" + reached.messageId() + "-" + reached.step();
        Path marker = Path.of(markerDir).resolve(name.replaceAll("[^A-Za-z0-9._-]", "_"));
        if (Files.exists(marker)) {
            return false;
        }
        Files.createDirectories(marker.getParent());
        Files.createFile(marker);
        return true;
    }
}
