/** A consumer's identity: its name, unique in the database, and the one destination recorded for it. */
package org.exactlyonce.internal.consumer;
