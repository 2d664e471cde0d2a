package org.exactlyonce.harness;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.sql.DataSource;
import org.exactlyonce.ProtocolStep.Step;
import org.exactlyonce.internal.broker.MessageEndpoints;

/**
 * Faults on demand, on a server with fault injection enabled: a crash at a protocol step, a consumer
 * name taken by another queue, a consumer paused; and what a crash must leave whole in the engine's
 * tables.
 */
@Path("/faults")
@Consumes(MediaType.APPLICATION_JSON)
public class FaultsResource {

    @Inject
    FaultInjection faults;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource database;

    @Inject
    MessageEndpoints endpoints;

    /** {@code {"step":"AFTER_COMMIT"}}: the next delivery or purge that reaches the step halts the server. */
    @POST
    @Path("/crash")
    public Response armCrash(CrashRequest request) {
        faults.refuseUnlessEnabled();
        try {
            faults.arm(Step.valueOf(request.step()));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new BadRequestException("no such protocol step: " + request.step());
        }
        return Response.accepted().build();
    }

    /** Makes this server's purge deletions fail until released: see {@link FaultInjection#holdPurgeDeletions}. */
    @POST
    @Path("/purge-deletions-held")
    public Response holdPurgeDeletions() {
        faults.refuseUnlessEnabled();
        faults.holdPurgeDeletions(true);
        return Response.noContent().build();
    }

    /** Lets this server's purge deletions go on again. */
    @DELETE
    @Path("/purge-deletions-held")
    public Response releasePurgeDeletions() {
        faults.refuseUnlessEnabled();
        faults.holdPurgeDeletions(false);
        return Response.noContent().build();
    }

    /**
     * Each consumer's count of acknowledged IDs as the purge keeps it (null while not kept) and the IDs
     * the table holds, both read by one statement: what a crash must not set apart.
     */
    @GET
    @Path("/acknowledged-counts")
    @Produces(MediaType.APPLICATION_JSON)
    public List<AcknowledgedCount> acknowledgedCounts() throws SQLException {
        faults.refuseUnlessEnabled();
        List<AcknowledgedCount> counts = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT c.CONSUMER, c.ACKNOWLEDGED_IDS,"
                        + " (SELECT COUNT(*) FROM EO_PROCESSED_MESSAGE p WHERE p.CONSUMER = c.CONSUMER"
                        + " AND p.ACKNOWLEDGED_AT IS NOT NULL) FROM EO_CONSUMER c");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                long kept = rows.getLong(2);
                counts.add(new AcknowledgedCount(rows.getString(1), rows.wasNull() ? null : kept, rows.getLong(3)));
            }
        }
        return counts;
    }

    /** A consumer's count of acknowledged IDs as the purge keeps it (null while not kept), and as counted. */
    public record AcknowledgedCount(String consumer, Long kept, long counted) {}

    /**
     * {@code {"consumer":"…","queue":"…"}}: records the consumer's name in the engine's table as read
     * from another queue, as a second consumer sharing the name would have: the consumer's next first
     * delivery on this server must be refused.
     */
    @POST
    @Path("/foreign-consumer")
    public Response recordForeignConsumer(ForeignConsumer foreign) throws SQLException {
        faults.refuseUnlessEnabled();
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO EO_CONSUMER"
                        + " (CONSUMER, DESTINATION_TYPE, DESTINATION, REGISTERED_AT) VALUES (?, 'QUEUE', ?, ?)")) {
            insert.setString(1, foreign.consumer());
            insert.setString(2, foreign.queue());
            insert.setTimestamp(3, Timestamp.valueOf(LocalDateTime.now(ZoneOffset.UTC)));
            insert.executeUpdate();
        }
        return Response.noContent().build();
    }

    /** Forgets the destination recorded for a consumer; its next delivery records its own again. */
    @DELETE
    @Path("/foreign-consumer")
    public Response forgetConsumer(@QueryParam("consumer") String consumer) throws SQLException {
        faults.refuseUnlessEnabled();
        try (Connection connection = database.getConnection();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM EO_CONSUMER WHERE CONSUMER = ?")) {
            delete.setString(1, consumer);
            delete.executeUpdate();
        }
        return Response.noContent().build();
    }

    /**
     * Pauses a message-driven bean's deliveries, as an operator does for maintenance: its messages
     * wait on the broker until it is resumed.
     */
    @POST
    @Path("/paused-consumers/{bean}")
    public Response pauseConsumer(@PathParam("bean") String bean) throws JMException {
        faults.refuseUnlessEnabled();
        endpoints.pause(endpointOf(bean));
        return Response.noContent().build();
    }

    /** Lets a paused message-driven bean take messages again. */
    @DELETE
    @Path("/paused-consumers/{bean}")
    public Response resumeConsumer(@PathParam("bean") String bean) throws JMException {
        faults.refuseUnlessEnabled();
        endpoints.resume(endpointOf(bean));
        return Response.noContent().build();
    }

    private String endpointOf(String bean) {
        return endpoints
                .endpointOf(bean)
                .orElseThrow(() -> new NotFoundException("this server has no endpoint of a bean named " + bean));
    }

    /** Where to crash. */
    public record CrashRequest(String step) {}

    /** A consumer name as another consumer on another queue would have recorded it. */
    public record ForeignConsumer(String consumer, String queue) {}
}
