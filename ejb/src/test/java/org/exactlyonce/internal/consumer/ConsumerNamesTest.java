package org.exactlyonce.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ejb.MessageDriven;
import org.junit.jupiter.api.Test;

class ConsumerNamesTest {

    static class InvoiceListener {}

    @MessageDriven(name = "AuditInvoiceListener")
    static class NamedInvoiceListener {}

    @Test
    void theDefaultNameIsTheApplicationModuleAndBean() {
        assertEquals(
                "shop/billing/InvoiceListener", ConsumerNames.defaultName("shop", "billing", InvoiceListener.class));
    }

    @Test
    void twoClassesWithOneSimpleNameDifferByTheirBeanNames() {
        assertNotEquals(
                ConsumerNames.defaultName("shop", "billing", InvoiceListener.class),
                ConsumerNames.defaultName("shop", "billing", NamedInvoiceListener.class));
        assertEquals("AuditInvoiceListener", ConsumerNames.beanName(NamedInvoiceListener.class));
    }

    @Test
    void aModuleDeployedOnItsOwnIsNamedOnce() {
        assertEquals("billing/InvoiceListener", ConsumerNames.defaultName("billing", "billing", InvoiceListener.class));
    }

    @Test
    void aNameTheTableCannotHoldIsRefusedWithTheBeanAndTheReason() {
        var tooLong = assertThrows(
                IllegalStateException.class, () -> ConsumerNames.validated("x".repeat(101), InvoiceListener.class));
        assertTrue(tooLong.getMessage().contains("101 characters"), tooLong.getMessage());
        assertTrue(tooLong.getMessage().contains(InvoiceListener.class.getName()), tooLong.getMessage());

        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated(" padded", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated("", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated(null, InvoiceListener.class));
        assertEquals("x".repeat(100), ConsumerNames.validated("x".repeat(100), InvoiceListener.class));
    }
}
