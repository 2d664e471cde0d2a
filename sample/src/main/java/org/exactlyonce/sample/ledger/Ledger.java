package org.exactlyonce.sample.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;

/** The ledger's credits and the balances they add up to. */
@ApplicationScoped
public class Ledger {

    @PersistenceContext(unitName = "ledger")
    private EntityManager entityManager;

    /**
     * Books a credit in the caller's transaction, written at once: a database failure (a lock wait that
     * timed out) then surfaces here with its SQLState, which the engine retries, instead of at the commit,
     * where Open Liberty's transaction manager reports a bare rollback.
     */
    public void book(CreditOrder order) {
        entityManager.persist(
                new Credit(order.messageId(), order.account(), order.amount(), LocalDateTime.now(ZoneOffset.UTC)));
        entityManager.flush();
    }

    public long balanceOf(String account) {
        Number sum = entityManager
                .createQuery("select sum(c.amount) from Credit c where c.account = :account", Number.class)
                .setParameter("account", account)
                .getSingleResult();
        return sum == null ? 0 : sum.longValue();
    }

    /**
     * How many credits each message booked to the account: exactly once means 1 for every one sent.
     * Counted here, not by the database: a GROUP BY would take IDs that differ only in trailing blanks
     * for one on Derby, or in case on a case-insensitive collation.
     */
    public Map<String, Long> effectsByMessage(String account) {
        Map<String, Long> effects = new TreeMap<>();
        entityManager
                .createQuery("select c.messageId from Credit c where c.account = :account", String.class)
                .setParameter("account", account)
                .getResultList()
                .forEach(messageId -> effects.merge(messageId, 1L, Long::sum));
        return effects;
    }

    public long creditsOf(String account) {
        return entityManager
                .createQuery("select count(c) from Credit c where c.account = :account", Long.class)
                .setParameter("account", account)
                .getSingleResult();
    }
}
