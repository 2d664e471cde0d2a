/**
 * Consuming a message exactly once: {@link org.exactlyonce.consume.AbstractExactlyOnceConsumer}, the
 * message-driven bean applications extend, and what it reads from a message (its ID, its body).
 */
package org.exactlyonce.consume;
