package org.exactlyonce.harness;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.UserTransaction;
import java.util.Optional;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.sample.ledger.Ledger;

/**
 * The baseline: the same booking as the sample's {@code LedgerConsumer} in the same kind of transaction, without a
 * processed-ID table. It is what the engine improves on: a crash between its commit and the
 * acknowledgement books the redelivered credit twice, which the crash suite must be able to see.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(
                    propertyName = "destinationLookup",
                    propertyValue = TestQueues.AT_LEAST_ONCE_CREDITS),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
@TransactionManagement(TransactionManagementType.BEAN)
public class AtLeastOnceConsumer implements MessageListener {

    @Resource
    UserTransaction transaction;

    @Inject
    Ledger ledger;

    @Inject
    FaultInjection faults;

    @Override
    public void onMessage(Message message) {
        try {
            TestCredit credit = TestCredit.in(message).orElseThrow(() -> new IllegalArgumentException("no credit"));
            transaction.begin();
            faults.failOrDelayIfAsked(credit, message);
            ledger.book(credit.order());
            faults.reached(Step.BEFORE_COMMIT, getClass().getSimpleName(), credit.messageId(), Optional.of(credit));
            transaction.commit();
            faults.reached(Step.AFTER_COMMIT, getClass().getSimpleName(), credit.messageId(), Optional.of(credit));
        } catch (Exception e) {
            rollback();
            throw new IllegalStateException("booking failed, the broker will redeliver", e);
        }
    }

    private void rollback() {
        try {
            transaction.rollback();
        } catch (Exception e) {
            // nothing begun, or already rolled back: the redelivery is what matters
        }
    }
}
