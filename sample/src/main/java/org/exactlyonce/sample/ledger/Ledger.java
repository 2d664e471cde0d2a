package org.exactlyonce.sample.ledger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/** The ledger's credits and the balances they add up to. */
@ApplicationScoped
public class Ledger {

    @PersistenceContext(unitName = "ledger")
    private EntityManager entityManager;

    /** Books a credit in the caller's transaction. */
    public void book(CreditOrder order) {
        entityManager.persist(new Credit(order.messageId(), order.account(), order.amount(), Instant.now()));
    }

    public long balanceOf(String account) {
        return entityManager
                .createQuery("select coalesce(sum(c.amount), 0) from Credit c where c.account = :account", Long.class)
                .setParameter("account", account)
                .getSingleResult();
    }

    public long creditsOf(String account) {
        return entityManager
                .createQuery("select count(c) from Credit c where c.account = :account", Long.class)
                .setParameter("account", account)
                .getSingleResult();
    }
}
