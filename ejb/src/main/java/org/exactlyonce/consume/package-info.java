/**
 * Consuming a message exactly once: {@link org.exactlyonce.consume.AbstractExactlyOnceConsumer}, the
 * message-driven bean applications extend, {@link org.exactlyonce.consume.BatchedReceiver}, which
 * processes many messages per transaction on a thread of the application's, and what they read from a
 * message (its ID, its body).
 *
 * <p>The engine's API is what an application touches: here, {@link
 * org.exactlyonce.consume.AbstractExactlyOnceConsumer} to extend, {@link
 * org.exactlyonce.consume.BatchedReceiver} to run with a {@link org.exactlyonce.consume.BatchProcessor}
 * (in the server, built by {@link org.exactlyonce.consume.BatchedReceivers}), and {@link
 * org.exactlyonce.consume.InvalidMessageException} to throw with a {@link org.exactlyonce.park.ParkReason};
 * {@link org.exactlyonce.outbox.Outbox} and {@link org.exactlyonce.outbox.OutgoingMessage} to send in the
 * consumer's transaction; and {@link org.exactlyonce.protocol.ProtocolStep}, the event a test observes to
 * crash a server at a point of the protocol. The engine's other public types are marked {@link
 * org.exactlyonce.Internal}, with the reason each is public: the container or the console needs it so,
 * or another of the engine's packages uses it; they carry no promise to applications.
 */
package org.exactlyonce.consume;
