package org.exactlyonce.internal.outbox;

import org.exactlyonce.internal.message.BodyType;
import org.exactlyonce.internal.message.MessageCopies.StoredMessage;

/** A message waiting in the outbox, as the relay reads it to send it. */
record OutboxRow(long id, String messageId, BodyType bodyType, byte[] body, String headers, String properties)
        implements StoredMessage {}
