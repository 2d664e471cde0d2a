/**
 * Deleting processed IDs once the broker confirms their messages can no longer be delivered, never
 * before; see {@code src/docs/purge.md}.
 */
package org.exactlyonce.internal.purge;
