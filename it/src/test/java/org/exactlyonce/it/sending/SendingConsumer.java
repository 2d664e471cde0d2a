package org.exactlyonce.it.sending;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.exactlyonce.AbstractExactlyOnceConsumer;

/**
 * A consumer that holds a connection factory, as one that sends from {@code process} does: deployed by
 * {@code DeploymentCheckIT} in an application of its own, never in the sample. It names the sample's
 * dead-letter queue, which exists on every server, but selects no message from it: WildFly activates it
 * (Open Liberty does not, no activation spec names it), and it stays deployed for up to one scan of the
 * deployments after the test takes it away, while the next tests send messages that end on that queue.
 */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/ledger/FailedCredits"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue"),
            @ActivationConfigProperty(propertyName = "messageSelector", propertyValue = "1 = 0")
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
