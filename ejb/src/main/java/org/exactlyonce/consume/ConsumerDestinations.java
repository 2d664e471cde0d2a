package org.exactlyonce.consume;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.util.Optional;
import org.exactlyonce.processed.SqlStates;

/** The destinations consumers read, as the database records them; each write a transaction of its own. */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
public class ConsumerDestinations {

    @PersistenceContext(unitName = "exactly-once")
    private EntityManager entityManager;

    /**
     * Records the destination a consumer reads, unless one is recorded already.
     *
     * @return the destination recorded for the consumer, which may be another one; empty when another
     *     server recorded one at the same moment, which {@link #find} then reads
     */
    public Optional<ConsumerDestination> register(ConsumerDestination delivered) {
        Optional<ConsumerDestination> recorded = find(delivered.consumer());
        if (recorded.isPresent()) {
            return recorded;
        }
        try {
            entityManager.persist(delivered);
            entityManager.flush();
            return Optional.of(delivered);
        } catch (PersistenceException e) {
            if (SqlStates.isUniqueViolation(e)) {
                return Optional.empty(); // the container rolls back the failed insert
            }
            throw e;
        }
    }

    @TransactionAttribute(TransactionAttributeType.SUPPORTS)
    public Optional<ConsumerDestination> find(String consumer) {
        return Optional.ofNullable(entityManager.find(ConsumerDestination.class, consumer));
    }
}
