package org.exactlyonce.internal.message;

import jakarta.jms.BytesMessage;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.util.stream.Stream;

/** The JMS message types, by their body, as a parked message keeps and replays them. */
public enum BodyType {
    TEXT(TextMessage.class),
    BYTES(BytesMessage.class),
    MAP(MapMessage.class),
    STREAM(StreamMessage.class),
    OBJECT(ObjectMessage.class),
    /** A plain {@code Message}: headers and properties only. */
    NONE(Message.class);

    private final Class<? extends Message> type;

    BodyType(Class<? extends Message> type) {
        this.type = type;
    }

    /** The type of a message, whatever provider class implements it. */
    public static BodyType of(Message message) {
        return Stream.of(values())
                .filter(each -> each.type.isInstance(message))
                .findFirst()
                .orElse(NONE);
    }

    /** The JMS interface's name, such as {@code MapMessage}. */
    public String jmsName() {
        return type.getSimpleName();
    }
}
