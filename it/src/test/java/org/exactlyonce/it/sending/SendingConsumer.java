package org.exactlyonce.it.sending;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.exactlyonce.consume.AbstractExactlyOnceConsumer;

/**
 * A consumer that holds a connection factory, as one that sends from {@code process} does: deployed by
 * {@code DeploymentCheckIT} in an application of its own, never in the sample. It reads the sample's
 * dead-letter queue (Open Liberty does not activate it: no activation spec names it) and hands back
 * anything it gets.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/ledger/FailedCredits"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class SendingConsumer extends AbstractExactlyOnceConsumer {

    @Resource(lookup = "java:comp/DefaultJMSConnectionFactory")
    ConnectionFactory onward;

    @Override
    protected void process(Message message) {
        throw new IllegalStateException("a consumer deployed only to be warned of processed a message");
    }
}
