package org.exactlyonce.harness;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Queue;
import jakarta.transaction.Transactional;
import java.sql.SQLException;
import org.exactlyonce.outbox.Outbox;
import org.exactlyonce.outbox.OutgoingMessage;

/** Writes a text message to the outbox in a transaction of its own, for {@link TestMessagesResource}. */
@ApplicationScoped
public class OutboxWrites {

    @Inject
    Outbox outbox;

    /** @return the outgoing message's ID */
    @Transactional
    public String write(Queue queue, String text) throws SQLException {
        return outbox.send(queue, OutgoingMessage.text(text));
    }
}
