package org.exactlyonce.outbox;

import org.exactlyonce.message.BodyType;
import org.exactlyonce.message.MessageCopies.StoredMessage;

/** A message waiting in the outbox, as the relay reads it to send it. */
record OutboxRow(long id, String messageId, BodyType bodyType, byte[] body, String headers, String properties)
        implements StoredMessage {}
