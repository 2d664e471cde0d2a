package org.exactlyonce.orders;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.exactlyonce.AbstractExactlyOnceConsumer;

/** Books each order once, however often the broker or the producer delivers it: the README's example. */
@MessageDriven(
        messageListenerInterface = MessageListener.class,
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = "jms/orders"),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN) // required on your class: it is not inherited
public class OrderConsumer extends AbstractExactlyOnceConsumer {

    @PersistenceContext(unitName = "orders")
    EntityManager orders;

    @Override
    protected void process(Message message) throws Exception {
        orders.persist(new Order(message.getBody(String.class)));
        orders.flush(); // a database failure surfaces here, with its SQLState, not at the commit
    }
}
