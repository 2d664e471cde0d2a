package org.exactlyonce.harness.audit;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.exactlyonce.AbstractExactlyOnceConsumer;
import org.exactlyonce.harness.AuditTrail;

/**
 * A second consumer whose class has the same simple name as the ledger's, in another package, on a
 * queue of its own: the tests send one business ID to both queues, and each consumer must book it
 * once. Its bean name, which its default consumer name includes, tells the two apart. A test harness:
 * a real application names its beans after what they do.
 */
@MessageDriven(
        name = "AuditLedgerConsumer",
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = AuditTrail.QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class LedgerConsumer extends AbstractExactlyOnceConsumer {

    @Inject
    AuditTrail auditTrail;

    @Override
    protected void process(Message message) throws Exception {
        auditTrail.book(message.getBody(String.class));
    }
}
