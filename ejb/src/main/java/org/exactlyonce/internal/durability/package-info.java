/**
 * Whether the database keeps what it committed: the protocol acknowledges a message once its ID and
 * effects are committed, so a commit that a crash or a failover can take back loses an effect or books
 * a message twice. Read from the database's own settings, at start, in readiness and on the console.
 */
package org.exactlyonce.internal.durability;
