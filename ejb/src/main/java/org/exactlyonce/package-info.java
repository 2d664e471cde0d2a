/**
 * Exactly-once processing for Jakarta Messaging consumers: the API is this package, the message-driven
 * bean to extend ({@link org.exactlyonce.AbstractExactlyOnceConsumer}), the exception that parks a bad
 * message ({@link org.exactlyonce.InvalidMessageException} with a {@link org.exactlyonce.ParkReason})
 * and the event a test observes to crash a server at a point of the protocol ({@link
 * org.exactlyonce.ProtocolStep}); with {@link org.exactlyonce.batch} and {@link org.exactlyonce.outbox}.
 * Everything under {@code org.exactlyonce.internal} is the engine's own and carries no promise to
 * applications.
 */
package org.exactlyonce;
