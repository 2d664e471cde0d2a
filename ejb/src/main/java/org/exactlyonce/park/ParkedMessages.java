package org.exactlyonce.park;

import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.TypedQuery;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.consume.MessageBodies;
import org.exactlyonce.processed.SqlStates;

/**
 * The parked messages: kept whole with the reason, until an operator replays them to their queue
 * (same ID, same properties) or discards them.
 */
@Stateless
public class ParkedMessages {

    private static final Logger LOG = Logger.getLogger(ParkedMessages.class.getName());

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    @Resource
    private SessionContext session;

    /** JNDI name of the connection factory a replay sends with. */
    @Inject
    @ConfigProperty(name = "exactlyonce.connection-factory", defaultValue = "java:comp/DefaultJMSConnectionFactory")
    String connectionFactory;

    private final Clock clock = Clock.systemUTC();

    /**
     * Parks the message in the caller's transaction; the caller commits, then lets the message be
     * acknowledged.
     *
     * @param messageId the application's ID, or {@code null} when the message has no usable one
     * @param attempts the deliveries of the message, this one included
     * @return false when this broker message is already parked (a redelivery after a crash): then the
     *     transaction can only be rolled back, and the message acknowledged all the same
     */
    @TransactionAttribute(TransactionAttributeType.MANDATORY)
    public boolean park(
            String consumer, String messageId, Message message, int attempts, ParkReason reason, String detail)
            throws JMSException {
        ParkedMessage parked =
                new ParkedMessage(consumer, messageId, message.getJMSMessageID(), queueOf(message), reason, detail);
        parked.keep(
                MessageBodies.textOf(message),
                MessageBodies.bytesOf(message),
                MessageCopies.propertiesOf(message),
                attempts,
                message.getJMSTimestamp() == 0 ? null : Instant.ofEpochMilli(message.getJMSTimestamp()),
                clock.instant());
        try {
            entityManager.persist(parked);
            entityManager.flush();
        } catch (PersistenceException e) {
            if (SqlStates.isUniqueViolation(e)) {
                return false;
            }
            throw e;
        }
        LOG.warning(() -> consumer + " parked message " + (messageId == null ? message : messageId) + " (" + reason
                + "): " + detail);
        return true;
    }

    /** A page of parked messages, newest first; {@code consumer} and {@code reason} filter when not null. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ParkedMessage> list(String consumer, ParkReason reason, int page, int size) {
        StringBuilder jpql = new StringBuilder("select p from ParkedMessage p where 1 = 1");
        if (consumer != null) {
            jpql.append(" and p.consumer = :consumer");
        }
        if (reason != null) {
            jpql.append(" and p.reason = :reason");
        }
        TypedQuery<ParkedMessage> query =
                entityManager.createQuery(jpql.append(" order by p.id desc").toString(), ParkedMessage.class);
        if (consumer != null) {
            query.setParameter("consumer", consumer);
        }
        if (reason != null) {
            query.setParameter("reason", reason);
        }
        return query.setFirstResult(page * size).setMaxResults(size).getResultList();
    }

    /** How many messages each consumer has parked, those replayed or discarded no longer counted. */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Map<String, Long> countByConsumer() {
        Map<String, Long> counts = new TreeMap<>();
        entityManager
                .createQuery("select p.consumer, count(p) from ParkedMessage p group by p.consumer", Object[].class)
                .getResultList()
                .forEach(row -> counts.put((String) row[0], ((Number) row[1]).longValue()));
        return counts;
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ParkedMessage> find(long id) {
        return Optional.ofNullable(entityManager.find(ParkedMessage.class, id));
    }

    /** Deletes a parked message; false when there is none with that ID. */
    public boolean discard(long id) {
        ParkedMessage parked = entityManager.find(ParkedMessage.class, id);
        if (parked == null) {
            return false;
        }
        entityManager.remove(parked);
        return true;
    }

    /**
     * Sends a parked message back to its queue, with its ID and properties, then deletes it. Should
     * the delete fail after the send, the message is both replayed and still parked; replaying it again
     * sends a copy the consumer drops as a duplicate once one of them is processed.
     *
     * @return false when there is no parked message with that ID
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public boolean replay(long id) throws JMSException, NamingException {
        Optional<ParkedMessage> found = find(id);
        if (found.isEmpty()) {
            return false;
        }
        ParkedMessage parked = found.get();
        try (JMSContext jms = ((ConnectionFactory) new InitialContext().lookup(connectionFactory)).createContext()) {
            Queue queue = jms.createQueue(parked.queueName());
            jms.createProducer().send(queue, MessageCopies.rebuild(parked, jms));
        }
        return session.getBusinessObject(ParkedMessages.class).discard(id);
    }

    private static String queueOf(Message message) throws JMSException {
        Destination destination = message.getJMSDestination();
        return destination instanceof Queue queue ? queue.getQueueName() : null;
    }
}
