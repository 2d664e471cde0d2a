/**
 * The exactly-once engine, a package per feature; what applications use is named in {@link
 * org.exactlyonce.consume}, and every other public type is marked {@link org.exactlyonce.Internal}.
 */
package org.exactlyonce;
