package org.exactlyonce.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.Message;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Optional;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.junit.jupiter.api.Test;

class MessageIdsTest {

    @Test
    void readsTheIdFromTheConfiguredProperty() throws Exception {
        Message message = message(Map.of("orderId", "order-7"), "ID:broker-1");

        assertEquals("order-7", MessageIds.read(message, "orderId"));
    }

    @Test
    void readsTheBrokersIdOnlyWhenConfiguredByName() throws Exception {
        Message message = message(Map.of("messageId", "app-1"), "ID:broker-1");

        assertEquals("ID:broker-1", MessageIds.read(message, MessageIds.JMS_MESSAGE_ID));
        assertEquals("app-1", MessageIds.read(message, "messageId"));
    }

    @Test
    void rejectsAMissingId() {
        var rejected = assertThrows(InvalidMessageException.class, () -> MessageIds.validated("messageId", null));

        assertTrue(rejected.getMessage().contains("'messageId' is not set"), rejected.getMessage());
    }

    @Test
    void rejectsABlankId() {
        var rejected = assertThrows(InvalidMessageException.class, () -> MessageIds.validated("messageId", "  "));

        assertTrue(rejected.getMessage().contains("is empty"), rejected.getMessage());
    }

    @Test
    void rejectsAnIdLongerThanTheTableHolds() {
        String tooLong = "x".repeat(201);

        var rejected = assertThrows(InvalidMessageException.class, () -> MessageIds.validated("messageId", tooLong));

        assertTrue(rejected.getMessage().contains("201 characters"), rejected.getMessage());
    }

    @Test
    void countsCharactersNotUtf16Units() {
        String emoji = "\uD83D\uDE00".repeat(200);

        assertEquals(emoji, MessageIds.validated("messageId", emoji));
        var rejected = assertThrows(
                InvalidMessageException.class, () -> MessageIds.validated("messageId", emoji + "\uD83D\uDE00"));
        assertTrue(rejected.getMessage().contains("201 characters"), rejected.getMessage());
    }

    @Test
    void rejectsAnIdNoDatabaseStoresAsText() {
        for (String malformed : new String[] {"a\0b", "a\uD800", "\uDC00a", "a\uDC00\uD800"}) {
            var rejected =
                    assertThrows(InvalidMessageException.class, () -> MessageIds.validated("messageId", malformed));
            assertEquals(ParkReason.MALFORMED_ID, rejected.reason());
        }
    }

    @Test
    void acceptsAnIdOfTheLongestLength() {
        String longest = "x".repeat(200);

        assertEquals(longest, MessageIds.validated("messageId", longest));
    }

    @Test
    void aMessageWithoutAUsableIdHasNoneInsteadOfFailing() throws Exception {
        MessageIds ids = new MessageIds();
        ids.idProperty = "messageId";

        assertEquals(Optional.of("a-1"), ids.usableIdOf(message(Map.of("messageId", "a-1"), "ID:1")));
        assertEquals(Optional.empty(), ids.usableIdOf(message(Map.of(), "ID:2")));
        assertEquals(Optional.empty(), ids.usableIdOf(message(Map.of("messageId", " "), "ID:3")));
    }

    /** A message with the given string properties and broker ID; nothing else of it is used. */
    private static Message message(Map<String, String> properties, String jmsMessageId) {
        return (Message) Proxy.newProxyInstance(
                Message.class.getClassLoader(),
                new Class<?>[] {Message.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getStringProperty" -> properties.get((String) args[0]);
                    case "getJMSMessageID" -> jmsMessageId;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
