/**
 * What the engine needs from the messaging platform it runs on, behind two small interfaces with one
 * implementation per platform: a {@link org.exactlyonce.internal.broker.BrokerView} that confirms a message can
 * no longer be delivered, and {@link org.exactlyonce.internal.broker.MessageEndpoints} that pause consumers.
 * {@link org.exactlyonce.platform} picks the implementations.
 */
package org.exactlyonce.internal.broker;
