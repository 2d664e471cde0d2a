package org.exactlyonce.internal.console;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import org.exactlyonce.ParkReason;
import org.exactlyonce.batch.BatchedReceivers;
import org.exactlyonce.internal.broker.BrokerConnections;
import org.exactlyonce.internal.consumer.ConsumerDestination;
import org.exactlyonce.internal.consumer.ConsumerNames;
import org.exactlyonce.internal.consumer.LocalConsumers;
import org.exactlyonce.internal.delivery.MessageIds;
import org.exactlyonce.internal.delivery.RefusedMessage;
import org.exactlyonce.internal.durability.DurabilityGuard;
import org.exactlyonce.internal.durability.DurabilityReport;
import org.exactlyonce.internal.outage.DatabaseOutage;
import org.exactlyonce.internal.outbox.OutboxFigures;
import org.exactlyonce.internal.outbox.OutboxRelay;
import org.exactlyonce.internal.outbox.OutboxTable;
import org.exactlyonce.internal.outbox.UnsentMessage;
import org.exactlyonce.internal.park.ParkedMessage;
import org.exactlyonce.internal.park.ParkedMessages;
import org.exactlyonce.internal.processed.IdTableCounts;
import org.exactlyonce.internal.processed.ProcessedMessage;
import org.exactlyonce.internal.processed.ProcessedMessages;
import org.exactlyonce.internal.purge.Purge;
import org.exactlyonce.internal.purge.PurgeReport;
import org.exactlyonce.internal.telemetry.ConsumerMetrics;
import org.exactlyonce.internal.telemetry.Outcome;

/**
 * The engine as the admin console sees it: every figure it shows and every operator's action it takes
 * goes through here, so that the console depends on one type of the engine's, not on its features'.
 */
@ApplicationScoped
public class ConsoleFacade {

    /** The length of the UUIDs that identify outgoing messages. */
    private static final int OUTGOING_ID_LENGTH = 36;

    @Inject
    ConsumerMetrics metrics;

    @Inject
    LocalConsumers consumers;

    @EJB
    Purge purge;

    @EJB
    ParkedMessages parkedMessages;

    @EJB
    ProcessedMessages processedMessages;

    @EJB
    OutboxRelay relay;

    @Inject
    OutboxTable outbox;

    @EJB
    DatabaseOutage outage;

    @Inject
    BrokerConnections connections;

    @Inject
    BatchedReceivers receivers;

    @Inject
    DurabilityGuard durability;

    /** The database's durability settings as they are now. */
    public DurabilityReport durability() throws SQLException {
        return durability.read();
    }

    /** Each consumer's deliveries since the server started, by outcome. */
    public SortedMap<String, Map<Outcome, Long>> deliveries() {
        return metrics.snapshot();
    }

    public long processedLastMinute(String consumer) {
        return metrics.processedLastMinute(consumer);
    }

    /** The consumers whose processed IDs the last purge counted. */
    public SortedSet<String> countedIdTables() {
        return metrics.countedIdTables();
    }

    public Optional<IdTableCounts> idTable(String consumer) {
        return metrics.idTable(consumer);
    }

    public long oldestUnconfirmedSeconds(String consumer) {
        return metrics.oldestUnconfirmedSeconds(consumer);
    }

    public Optional<Boolean> lastPurgeCouldNotConfirm(String consumer) {
        return metrics.lastPurgeCouldNotConfirm(consumer);
    }

    /** The consumers deployed on this server. */
    public Set<String> localConsumers() {
        return consumers.names();
    }

    public Optional<ConsumerDestination> destinationOf(String consumer) {
        return consumers.destinationOf(consumer);
    }

    public Optional<String> subscriptionOf(ConsumerDestination recorded) {
        return consumers.subscriptionOf(recorded);
    }

    public Optional<PurgeReport> lastPurge() {
        return purge.lastRun();
    }

    public PurgeReport purgeNow() {
        return purge.purgeNow();
    }

    public Duration purgeInterval() {
        return purge.interval();
    }

    /** When the purge last showed that it works: a step of a run going on, or the end of the last. */
    public Instant purgeLastActivity() {
        return purge.lastActivity();
    }

    public Optional<ProcessedMessage> processed(String consumer, String messageId) {
        return processedMessages.find(consumer, messageId);
    }

    /**
     * What makes a name one no consumer can have, as the engine refuses it; empty when a consumer may
     * have it. A look-up by such a name is the client's mistake, not a question for the database.
     */
    public Optional<String> problemWithConsumerName(String consumer) {
        return ConsumerNames.problemWith(consumer).map(problem -> "the consumer name " + problem);
    }

    /** What makes an ID one no message can have, as the engine refuses it; empty when a message may have it. */
    public Optional<String> problemWithMessageId(String messageId) {
        try {
            MessageIds.validated("messageId", messageId);
            return Optional.empty();
        } catch (RefusedMessage e) {
            return Optional.of(e.getMessage());
        }
    }

    public Map<String, Long> parkedByConsumer() {
        return parkedMessages.countByConsumer();
    }

    /** A page of parked messages, newest first; {@code consumer} and {@code reason} filter when not null. */
    public List<ParkedMessage> parked(String consumer, ParkReason reason, int page, int size) {
        return parkedMessages.list(consumer, reason, page, size);
    }

    public Optional<ParkedMessage> parked(long id) {
        return parkedMessages.find(id);
    }

    public ParkedMessages.Replay replayParked(long id) throws JMSException {
        return parkedMessages.replay(id);
    }

    public boolean discardParked(long id) {
        return parkedMessages.discard(id);
    }

    public OutboxFigures outbox() throws SQLException {
        return relay.figures();
    }

    /** The first {@code max} outgoing messages whose last send failed, oldest first. */
    public List<UnsentMessage> failingOutgoing(int max) throws SQLException {
        return outbox.failing(max);
    }

    /** @return false when no message with the ID waits; an ID longer than the UUIDs the outbox gives never does */
    public boolean discardOutgoing(String messageId) throws SQLException {
        if (messageId.length() > OUTGOING_ID_LENGTH
                || problemWithMessageId(messageId).isPresent()) {
            return false;
        }
        return outbox.discard(messageId);
    }

    /** The consumer names of the batched receivers that a failure stopped, until they start again. */
    public List<String> receiversNotRunning() {
        return receivers.notRunning();
    }

    /** Since when the database is down, as the consumers found it; empty while it is up. */
    public Optional<Instant> databaseDownSince() {
        return outage.downSince();
    }

    /** The connection factory the engine browses queues and replays parked messages through. */
    public ConnectionFactory connectionFactory() throws JMSException {
        return connections.connectionFactory();
    }

    public String connectionFactoryName() {
        return connections.connectionFactoryName();
    }
}
