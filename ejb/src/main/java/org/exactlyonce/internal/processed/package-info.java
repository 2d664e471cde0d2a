/**
 * The table of processed message IDs, whose primary key decides what is a duplicate, and the readiness
 * check that the key is there.
 */
package org.exactlyonce.internal.processed;
