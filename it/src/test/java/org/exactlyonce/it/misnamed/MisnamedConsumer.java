package org.exactlyonce.it.misnamed;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.exactlyonce.AbstractExactlyOnceConsumer;

/**
 * A consumer whose name the processed-ID table cannot hold (101 characters): deployed by {@code
 * DeploymentCheckIT} in an application of its own, never in the sample. It reads the sample's audit
 * queue, so that nothing but its name can fail its deployment.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/ledger/Audit"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class MisnamedConsumer extends AbstractExactlyOnceConsumer {

    public static final String NAME = "orders-".repeat(14) + "abc";

    @Override
    protected String consumerName() {
        return NAME;
    }

    @Override
    protected void process(Message message) {
        throw new IllegalStateException("a consumer that must never be deployed processed a message");
    }
}
