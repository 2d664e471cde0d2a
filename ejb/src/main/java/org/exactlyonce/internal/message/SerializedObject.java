package org.exactlyonce.internal.message;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

/**
 * The body of a parked {@code ObjectMessage}, sent back by a replay. The engine cannot load the
 * application's classes where the replay runs (the console), so it sends the object's serialized form
 * inside this carrier, which the consumer's {@code getObject()} turns back into the original object: a
 * carrier reads as the object it carries, through the consumer's class loader.
 */
final class SerializedObject implements Serializable {

    private static final long serialVersionUID = 1L;

    private final byte[] serialized;

    SerializedObject(byte[] serialized) {
        this.serialized = serialized.clone();
    }

    private Object readResolve() throws InvalidObjectException {
        try (ObjectInputStream in = new ContextClassLoaderInputStream(new ByteArrayInputStream(serialized))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            InvalidObjectException failure = new InvalidObjectException("a replayed object cannot be read: " + e);
            failure.initCause(e);
            throw failure;
        }
    }

    /** Resolves classes as the consumer that reads the message sees them. */
    private static final class ContextClassLoaderInputStream extends ObjectInputStream {

        ContextClassLoaderInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(
                        description.getName(), false, Thread.currentThread().getContextClassLoader());
            } catch (ClassNotFoundException e) {
                return super.resolveClass(description); // primitive types and the JDK's own
            }
        }
    }
}
