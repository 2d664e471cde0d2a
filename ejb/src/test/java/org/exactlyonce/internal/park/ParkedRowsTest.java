package org.exactlyonce.internal.park;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jms.Message;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.derby.jdbc.EmbeddedDataSource;
import org.exactlyonce.testing.EngineTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A batch's look-up of its parked messages, in queries of at most 500 IDs, on Derby. */
class ParkedRowsTest {

    private static final String CONSUMER = "parked-rows-test";

    private EmbeddedDataSource database;

    @BeforeEach
    void parkEveryThirdOfAThousand() throws Exception {
        database = EngineTables.inNewDerby("parked-rows");
        try (Connection connection = database.getConnection()) {
            for (int i = 0; i < 1000; i += 3) {
                EngineTables.park(connection, CONSUMER, "ID:" + i);
            }
            EngineTables.park(connection, "another-consumer", "ID:1");
        }
    }

    @Test
    void noMessageAsksNothing() throws Exception {
        assertEquals(Set.of(), parkedAmong(List.of()));
    }

    @Test
    void aMessageWithoutAJmsMessageIdIsNeverFoundParked() throws Exception {
        List<Message> messages = new ArrayList<>();
        messages.add(message(null));
        messages.add(message("ID:3"));

        assertEquals(Set.of("ID:3"), parkedAmong(messages));
    }

    @Test
    void everyParkedMessageOfTheConsumerAndNoOtherIsFoundAcrossQueries() throws Exception {
        for (int count : List.of(1, 499, 500, 501, 1000)) {
            List<Message> messages =
                    IntStream.range(0, count).mapToObj(i -> message("ID:" + i)).toList();
            Set<String> expected = IntStream.range(0, count)
                    .filter(i -> i % 3 == 0)
                    .mapToObj(i -> "ID:" + i)
                    .collect(Collectors.toSet());

            assertEquals(expected, parkedAmong(messages), count + " messages");
        }
    }

    private Set<String> parkedAmong(List<Message> messages) throws Exception {
        try (Connection connection = database.getConnection()) {
            return ParkedRows.parkedAmong(connection, CONSUMER, messages);
        }
    }

    /** A message that answers only its JMS message ID, all the look-up reads. */
    private static Message message(String jmsMessageId) {
        return (Message) Proxy.newProxyInstance(
                Message.class.getClassLoader(), new Class<?>[] {Message.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getJMSMessageID")) {
                        return jmsMessageId;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
