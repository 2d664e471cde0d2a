package org.exactlyonce;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public type of the engine that is not part of its API: applications must not use it, and it
 * may change or go in any release, with its public member types. The API is the engine's public types
 * without this mark: this mark and the types {@code org.exactlyonce.consume}'s package documentation
 * names. A marked type is public only because something other than applications needs it so, which the
 * mark names; the build checks each reason.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Internal {

    /** Who needs the type public. */
    Reason[] value();

    /** Why a type that applications must not use is public nonetheless. */
    enum Reason {
        /** An enterprise bean or a CDI extension: their specifications require a public class. */
        CONTAINER,
        /** The console, a web module of its own, which cannot see a package-private type. */
        CONSOLE,
        /** Another of the engine's feature packages. */
        ANOTHER_FEATURE
    }
}
