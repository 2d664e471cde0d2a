package org.exactlyonce.internal.delivery;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;
import org.exactlyonce.internal.broker.ApplicationIds;
import org.exactlyonce.internal.processed.ProcessedMessage;
import org.exactlyonce.internal.processed.StoredIds;

/**
 * Reads the ID that makes a message unique for the application. By default that is a property the
 * producer sets and keeps across its own retries; the broker's {@code JMSMessageID} only catches broker
 * redeliveries (a re-send gets a new one), so it is used only when configured by name.
 */
@ApplicationScoped
public class MessageIds implements ApplicationIds {

    /** The property value that selects the broker's {@code JMSMessageID} header instead of a property. */
    public static final String JMS_MESSAGE_ID = "JMSMessageID";

    /** The words a JMS selector reserves, which no identifier may be (in any case). */
    private static final Set<String> RESERVED =
            Set.of("NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE");

    /** Name of the message property that carries the application's message ID. */
    @Inject
    @ConfigProperty(name = "exactlyonce.message-id.property", defaultValue = "messageId")
    String idProperty;

    /** The property the application's ID is in, or {@link #JMS_MESSAGE_ID}. */
    public String idProperty() {
        return idProperty;
    }

    /**
     * What is unusable in the setting; empty when it can be used. A property's name follows the JMS
     * selector's rules for an identifier; a name of the {@code JMS} prefix other than {@code JMSX} and
     * {@code JMS_} properties is a header's, which no property of a message carries.
     */
    public List<String> problems() {
        if (idProperty == null || !isIdentifier(idProperty) || RESERVED.contains(idProperty.toUpperCase(Locale.ROOT))) {
            return List.of("exactlyonce.message-id.property must name a message property (a JMS identifier), is '"
                    + idProperty + "'");
        }
        boolean reservedForHeaders =
                idProperty.startsWith("JMS") && !idProperty.startsWith("JMSX") && !idProperty.startsWith("JMS_");
        if (reservedForHeaders && !JMS_MESSAGE_ID.equals(idProperty)) {
            return List.of("exactlyonce.message-id.property is '" + idProperty + "': JMS reserves names"
                    + " that start with JMS for its headers and its JMSX and JMS_ properties, and of the headers"
                    + " only " + JMS_MESSAGE_ID + " can be the ID");
        }
        return List.of();
    }

    private static boolean isIdentifier(String name) {
        return !name.isEmpty()
                && Character.isJavaIdentifierStart(name.codePointAt(0))
                && name.codePoints().allMatch(Character::isJavaIdentifierPart);
    }

    /**
     * The property an outgoing message carries its ID in, for consumers that read IDs as these do.
     *
     * @throws IllegalStateException when these consumers read the broker's {@code JMSMessageID}, which a
     *     sender cannot set: a message sent again would get a new one, and count as a new message
     */
    public String propertyForOutgoing() {
        if (JMS_MESSAGE_ID.equals(idProperty)) {
            throw new IllegalStateException("exactlyonce.message-id.property is " + JMS_MESSAGE_ID
                    + ", which a sender cannot set: the outbox needs the IDs in a message property");
        }
        return idProperty;
    }

    /**
     * @return the message's ID, never blank nor longer than the processed-ID table holds
     * @throws InvalidMessageException when the message carries no usable ID
     */
    public String idOf(Message message) throws JMSException {
        return validated(idProperty, read(message, idProperty));
    }

    /** The message's ID as {@link #idOf} reads it, or empty when the message carries no usable ID. */
    @Override
    public Optional<String> usableIdOf(Message message) throws JMSException {
        try {
            return Optional.of(idOf(message));
        } catch (InvalidMessageException e) {
            return Optional.empty();
        }
    }

    /**
     * The ID of a message as a broker's listing shows it, read like {@link #idOf}: the property the
     * application's ID is in, or the JMS message ID when that is configured.
     *
     * @param properties the listed message's properties by name
     * @param jmsMessageId the listed message's JMS message ID
     */
    @Override
    public Optional<String> usableIdOf(Map<String, ?> properties, String jmsMessageId) {
        Object id = JMS_MESSAGE_ID.equals(idProperty) ? jmsMessageId : properties.get(idProperty);
        try {
            return id instanceof String text ? Optional.of(validated(idProperty, text)) : Optional.empty();
        } catch (InvalidMessageException e) {
            return Optional.empty();
        }
    }

    public static String read(Message message, String idProperty) throws JMSException {
        return JMS_MESSAGE_ID.equals(idProperty) ? message.getJMSMessageID() : message.getStringProperty(idProperty);
    }

    public static String validated(String idProperty, String id) {
        if (id == null) {
            throw new RefusedMessage(
                    ParkReason.MISSING_ID, "the message has no ID: property '" + idProperty + "' is not set");
        }
        if (id.isBlank()) {
            throw new RefusedMessage(ParkReason.EMPTY_ID, "the message ID in property '" + idProperty + "' is empty");
        }
        int length = id.codePointCount(0, id.length());
        if (length > ProcessedMessage.MAX_MESSAGE_ID_LENGTH) {
            throw new RefusedMessage(
                    ParkReason.ID_TOO_LONG,
                    "the message ID in property '" + idProperty + "' has " + length + " characters, more than the "
                            + ProcessedMessage.MAX_MESSAGE_ID_LENGTH + " allowed");
        }
        if (!StoredIds.isStorable(id)) {
            throw new RefusedMessage(
                    ParkReason.MALFORMED_ID,
                    "the message ID in property '" + idProperty + "' holds a NUL character or a lone surrogate,"
                            + " which databases cannot store as text");
        }
        return id;
    }
}
