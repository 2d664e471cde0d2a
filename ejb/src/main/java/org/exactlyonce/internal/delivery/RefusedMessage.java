package org.exactlyonce.internal.delivery;

import org.exactlyonce.InvalidMessageException;
import org.exactlyonce.ParkReason;

/** A message the engine refuses before processing, for a reason of its own: no usable ID, a type not accepted. */
public final class RefusedMessage extends InvalidMessageException {

    private static final long serialVersionUID = 1L;

    public RefusedMessage(ParkReason reason, String why) {
        super(reason, why);
    }
}
