/** The outbox's table and the relay that sends its rows once their transaction has committed. */
package org.exactlyonce.internal.outbox;
