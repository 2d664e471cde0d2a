/** Messages a consumer cannot process, kept whole with the reason for an operator to replay or discard. */
package org.exactlyonce.internal.park;
