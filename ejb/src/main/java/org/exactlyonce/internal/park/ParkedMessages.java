package org.exactlyonce.internal.park;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.message.MessageCopies;
import org.exactlyonce.internal.processed.ProcessedMessages;

/**
 * The parked messages: kept whole with the reason, until an operator replays them to their queue
 * (same type, body, headers and properties) or discards them.
 */
@Stateless
public class ParkedMessages {

    private static final Logger LOG = Logger.getLogger(ParkedMessages.class.getName());

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    @Resource
    private SessionContext session;

    @EJB
    private ProcessedMessages processedMessages;

    @Inject
    BrokerConnections connections;

    /**
     * A page of parked messages, newest first, without their bodies, headers and properties (see
     * {@link #find}); {@code consumer} and {@code reason} filter when not null.
     */
    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public List<ParkedMessage> list(String consumer, ParkReason reason, int page, int size) {
        StringBuilder jpql =
                new StringBuilder("select " + ParkedMessage.LISTED_FIELDS + " from ParkedMessage p where 1 = 1");
        if (consumer != null) {
            jpql.append(" and p.consumer = :consumer");
        }
        if (reason != null) {
            jpql.append(" and p.reason = :reason");
        }
        TypedQuery<Object[]> query =
                entityManager.createQuery(jpql.append(" order by p.id desc").toString(), Object[].class);
        if (consumer != null) {
            query.setParameter("consumer", consumer);
        }
        if (reason != null) {
            query.setParameter("reason", reason);
        }
        return query.setFirstResult(page * size).setMaxResults(size).getResultList().stream()
                .map(ParkedMessage::new)
                .toList();
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
     * <p>Refused for a message from a topic: every subscriber would receive the replay. Refused when its
     * consumer has processed the ID meanwhile (a producer's re-send, a delivery
     * after a crash, or the first message of a reused ID): the replay would have a second effect. The
     * purge keeps the ID of a parked message, so the refusal holds however late the replay comes.
     */
    @TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
    public Replay replay(long id) throws JMSException {
        Optional<ParkedMessage> found = find(id);
        if (found.isEmpty()) {
            return Replay.NO_SUCH_MESSAGE;
        }
        ParkedMessage parked = found.get();
        if (parked.messageId() != null
                && processedMessages.find(parked.consumer(), parked.messageId()).isPresent()) {
            LOG.info(() -> "refused to replay parked message " + id + ": " + parked.consumer()
                    + " has processed its ID " + parked.messageId() + " since");
            return Replay.ID_PROCESSED;
        }
        if (parked.queueName() == null) {
            LOG.info(() -> "refused to replay parked message " + id + ": it did not come from a queue (a topic's"
                    + " would reach every subscriber again)");
            return Replay.NOT_FROM_A_QUEUE;
        }
        try (JMSContext jms = connections.connectionFactory().createContext()) {
            Queue queue = jms.createQueue(parked.queueName());
            MessageCopies.producerFor(parked, jms).send(queue, MessageCopies.rebuild(parked, jms));
        }
        session.getBusinessObject(ParkedMessages.class).discard(id);
        return Replay.REPLAYED;
    }

    /** What became of a replay. */
    public enum Replay {
        REPLAYED,
        NO_SUCH_MESSAGE,
        /** Refused: the consumer has processed the message's ID since it was parked. */
        ID_PROCESSED,
        /**
         * Refused: the message came from a topic, where a replay would reach every subscriber again and
         * not only the consumer that parked it.
         */
        NOT_FROM_A_QUEUE
    }
}
