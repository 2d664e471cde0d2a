package org.exactlyonce.internal.consumer;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The destination a consumer reads, recorded at its first delivery. A consumer's name scopes its
 * processed IDs, so one name on two destinations would merge two streams of messages: a second
 * destination for a name is refused, never merged.
 */
@Entity
@Table(name = "EO_CONSUMER")
public class ConsumerDestination {

    /** Longest destination name the table holds. */
    static final int MAX_DESTINATION_LENGTH = 200;

    @Id
    @Column(name = "CONSUMER", length = 100)
    private String consumer;

    @Enumerated(EnumType.STRING)
    @Column(name = "DESTINATION_TYPE", length = 10, nullable = false)
    private Kind kind;

    @Column(name = "DESTINATION", length = MAX_DESTINATION_LENGTH, nullable = false)
    private String destination;

    /** In UTC, like every time the engine stores. */
    @Column(name = "REGISTERED_AT", nullable = false)
    private LocalDateTime registeredAt;

    /**
     * Mapped so that a generated schema has the column; never read or written here (nor loaded: the
     * destination is read and written by its columns in {@link ConsumerRows}, so a table from before it
     * works): the purge
     * keeps it in SQL, in the transactions that change the count ({@code processed.AcknowledgedCounts}).
     * Its type is spelt out because EclipseLink generates a read-only column as VARCHAR(255).
     */
    @Column(name = "ACKNOWLEDGED_IDS", insertable = false, updatable = false, columnDefinition = "BIGINT")
    private Long acknowledgedIds;

    protected ConsumerDestination() {}

    public ConsumerDestination(String consumer, Kind kind, String destination, Instant registeredAt) {
        this.consumer = consumer;
        this.kind = kind;
        this.destination = destination;
        this.registeredAt = LocalDateTime.ofInstant(registeredAt, ZoneOffset.UTC);
    }

    /** What a consumer reads, as a delivered message names it. */
    public static ConsumerDestination of(String consumer, Destination destination, Instant now) throws JMSException {
        return destination instanceof Topic topic
                ? new ConsumerDestination(consumer, Kind.TOPIC, topic.getTopicName(), now)
                : new ConsumerDestination(consumer, Kind.QUEUE, ((Queue) destination).getQueueName(), now);
    }

    public String consumer() {
        return consumer;
    }

    public Kind kind() {
        return kind;
    }

    /** When the consumer's first delivery recorded it, in UTC. */
    public LocalDateTime registeredAt() {
        return registeredAt;
    }

    /** The queue's or the topic's name, as the broker names it. */
    public String destination() {
        return destination;
    }

    public boolean isSameDestinationAs(Destination delivered) throws JMSException {
        return delivered instanceof Topic topic
                ? kind == Kind.TOPIC && destination.equals(topic.getTopicName())
                : kind == Kind.QUEUE && delivered instanceof Queue queue && destination.equals(queue.getQueueName());
    }

    /** Whether another recorded consumer reads this one's destination. */
    public boolean readsTheSameAs(ConsumerDestination other) {
        return kind == other.kind && destination.equals(other.destination);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + destination;
    }

    /** Whether a consumer reads a queue or subscribes to a topic. */
    public enum Kind {
        QUEUE,
        TOPIC
    }
}
