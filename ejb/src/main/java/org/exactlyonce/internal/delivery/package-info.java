/**
 * The delivery protocol, written once for the message-driven bean and the batched receiver: {@link
 * org.exactlyonce.internal.delivery.Delivery} over a {@link
 * org.exactlyonce.internal.delivery.Transactions} seam, with one retry policy.
 */
package org.exactlyonce.internal.delivery;
