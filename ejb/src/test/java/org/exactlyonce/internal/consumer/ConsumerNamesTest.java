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

    /** The maven-ear-plugin names modules artifactId-version: a release renames every module. */
    @Test
    void theDefaultNameStaysTheSameWhenAReleaseRenamesTheModule() {
        assertEquals(
                "org.exactlyonce.internal.consumer.ConsumerNamesTest$InvoiceListener",
                ConsumerNames.defaultName(InvoiceListener.class));
        assertNotEquals(
                ConsumerNames.earlierDefaultName("shop", "billing-1.0", InvoiceListener.class),
                ConsumerNames.earlierDefaultName("shop", "billing-1.1", InvoiceListener.class),
                "the default before, which each release changed");
    }

    @Test
    void theEarlierDefaultNameIsTheApplicationModuleAndBean() {
        assertEquals(
                "shop/billing/InvoiceListener",
                ConsumerNames.earlierDefaultName("shop", "billing", InvoiceListener.class));
        assertEquals(
                "shop/billing/AuditInvoiceListener",
                ConsumerNames.earlierDefaultName("shop", "billing", NamedInvoiceListener.class));
        assertEquals(
                "billing/InvoiceListener",
                ConsumerNames.earlierDefaultName("billing", "billing", InvoiceListener.class),
                "a module deployed on its own is named once");
    }

    @Test
    void aNameTheTableCannotHoldIsRefusedWithTheBeanAndTheReason() {
        var tooLong = assertThrows(
                IllegalStateException.class, () -> ConsumerNames.validated("x".repeat(101), InvoiceListener.class));
        assertTrue(tooLong.getMessage().contains("101 characters"), tooLong.getMessage());
        assertTrue(tooLong.getMessage().contains(InvoiceListener.class.getName()), tooLong.getMessage());

        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated(" padded", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated("", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated("a\u0000b", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated("a\u001bb", InvoiceListener.class));
        assertThrows(IllegalStateException.class, () -> ConsumerNames.validated(null, InvoiceListener.class));
        assertEquals("x".repeat(100), ConsumerNames.validated("x".repeat(100), InvoiceListener.class));
    }
}
